/**
 * The result of a multi-step tool: a summary line the model reads first, then each step with its
 * status, exit code, attempts, time and output (already cut at the output caps by its handler).
 */
import type { ToolResult } from '../types';

/** How one step ended. */
export interface StepOutcome {
  readonly name: string;
  readonly status: 'succeeded' | 'failed' | 'skipped' | 'cancelled';
  readonly continueOnError: boolean;
  readonly exitCode?: number;
  /** What the step showed (its output, or why it failed or was skipped). */
  readonly output: string;
  /** Its standard output alone: what `{{steps.NAME.stdout}}` reads. */
  readonly stdout: string;
  readonly attempts: number;
  readonly durationMs: number;
}

/**
 * The tool's result: an error when a step that may not fail failed, or when the run was stopped
 * (`stopped` says why). Its details carry the exit code of the last step that ran.
 */
export function formatSteps(outcomes: readonly StepOutcome[], stopped?: string): ToolResult {
  const failed = outcomes.filter((outcome) => outcome.status === 'failed' && !outcome.continueOnError);
  const summary = `Steps: ${outcomes.map((outcome) => `${outcome.name} ${outcome.status}${outcome.status === 'failed' && outcome.continueOnError ? ' (allowed)' : ''}`).join(', ')}.`;
  const ending = stopped !== undefined ? `Stopped: ${stopped}.` : failed.length > 0 ? `The tool failed at step ${failed.map((outcome) => `"${outcome.name}"`).join(', ')}.` : 'All steps that ran succeeded or were allowed to fail.';
  const sections = outcomes.map(section);
  const ran = outcomes.filter((outcome) => outcome.status === 'succeeded' || outcome.status === 'failed');
  const last = ran[ran.length - 1];
  return {
    text: [`${summary} ${ending}`, ...sections].join('\n\n'),
    isError: failed.length > 0 || stopped !== undefined,
    ...(last?.exitCode === undefined ? {} : { details: { exitCode: last.exitCode, stdout: last.stdout } }),
  };
}

function section(outcome: StepOutcome): string {
  const facts = [
    outcome.exitCode === undefined ? '' : `exit ${outcome.exitCode}`,
    outcome.attempts > 1 ? `${outcome.attempts} attempts` : '',
    outcome.status === 'skipped' || outcome.status === 'cancelled' ? '' : `${Math.round(outcome.durationMs)} ms`,
  ].filter((fact) => fact !== '');
  const heading = `[${outcome.status}] ${outcome.name}${facts.length > 0 ? ` · ${facts.join(' · ')}` : ''}`;
  return outcome.output === '' ? heading : `${heading}\n${outcome.output.replace(/\n$/, '')}`;
}
