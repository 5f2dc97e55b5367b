/**
 * Runs a multi-step tool: groups in order (a group is one step, or consecutive parallel steps
 * that run together), each step only when its `runIf` holds, with retries, its own and the tool's
 * timeout, and cancellation that stops every running step. Step outputs reach later steps as the
 * values `steps.NAME.stdout` and `steps.NAME.exitCode`, with every rule an input value has.
 * Conditions are data (success, failure, always, an exit code, a text): no expressions.
 */
import type { HandlerRun } from '../handlers/handler';
import type { TemplatePart } from '../templates';
import { fillValue } from '../templates';
import type { RunIf } from './run-if';
import type { ToolInput, ToolResult, ToolRunContext, ToolTag } from '../types';
import { formatSteps } from './format-steps';
import type { StepOutcome } from './format-steps';

/** A step ready to run, compiled at load. */
export type CompiledStep = {
  readonly name: string;
  /** Steps of one group run together; groups run in order. */
  readonly group: number;
  readonly runIf: RunIf;
  readonly continueOnError: boolean;
  readonly attempts: number;
  readonly delayMs: number;
  readonly timeoutMs?: number;
} & (
  | { readonly kind: 'handler'; readonly run: HandlerRun; readonly approvalLines: readonly string[]; readonly impliedTags?: readonly ToolTag[] }
  | { readonly kind: 'tool'; readonly tool: string; readonly with: ReadonlyArray<readonly [string, WithValue]> }
);

/** One value of a tool step's `with`: a string template, or any other JSON value as it is. */
export type WithValue = { readonly template: readonly TemplatePart[] } | { readonly value: unknown };

/** The group of each step: a parallel step joins the directly preceding parallel step's group. */
export function stepGroups(steps: ReadonlyArray<{ readonly parallel?: boolean }>): number[] {
  const groups: number[] = [];
  steps.forEach((step, index) => {
    const previous = steps[index - 1];
    const joins = index > 0 && step.parallel === true && previous?.parallel === true;
    groups.push(joins ? (groups[index - 1] ?? 0) : (groups[index - 1] ?? -1) + 1);
  });
  return groups;
}

/** Runs the steps; the result shows each one, and is an error when a step that may not fail failed. */
export async function runSteps(steps: readonly CompiledStep[], input: ToolInput, context: ToolRunContext, toolTimeoutMs?: number): Promise<ToolResult> {
  const timeout = toolTimeoutMs === undefined ? undefined : AbortSignal.timeout(toolTimeoutMs);
  const signal = timeout === undefined ? context.signal : AbortSignal.any([context.signal, timeout]);
  const outcomes = new Map<string, StepOutcome>();
  const lastGroup = Math.max(-1, ...steps.map((step) => step.group));
  for (let group = 0; group <= lastGroup; group++) {
    const members = steps.filter((step) => step.group === group);
    const values = stepValues(input, outcomes);
    context.progress?.(`step ${members.map((step) => step.name).join(', ')}`);
    const done = await Promise.all(members.map((step) => runOrSkip(step, values, outcomes, { ...context, signal })));
    done.forEach((outcome) => outcomes.set(outcome.name, outcome));
  }
  const stopped = timeout?.aborted === true ? `the tool's timeout of ${toolTimeoutMs} ms passed` : context.signal.aborted ? 'the call was cancelled' : undefined;
  return formatSteps([...outcomes.values()], stopped);
}

/** The tool's input plus each finished step's outputs, as values for templates. */
function stepValues(input: ToolInput, outcomes: ReadonlyMap<string, StepOutcome>): ToolInput {
  const values: Record<string, unknown> = { ...input };
  for (const outcome of outcomes.values()) {
    if (outcome.status === 'succeeded' || outcome.status === 'failed') {
      values[`steps.${outcome.name}.stdout`] = outcome.stdout;
      if (outcome.exitCode !== undefined) {
        values[`steps.${outcome.name}.exitCode`] = outcome.exitCode;
      }
    }
  }
  return values;
}

async function runOrSkip(step: CompiledStep, values: ToolInput, earlier: ReadonlyMap<string, StepOutcome>, context: ToolRunContext): Promise<StepOutcome> {
  const base = { name: step.name, continueOnError: step.continueOnError, attempts: 0, durationMs: 0, output: '', stdout: '' };
  if (context.signal.aborted) {
    return { ...base, status: 'cancelled' };
  }
  if (!shouldRun(step.runIf, earlier)) {
    return { ...base, status: 'skipped', output: `runIf ${JSON.stringify(step.runIf)} did not hold` };
  }
  const started = performance.now();
  let outcome: StepOutcome = { ...base, status: 'failed' };
  for (let attempt = 1; attempt <= step.attempts; attempt++) {
    if (attempt > 1 && !(await pause(step.delayMs, context.signal))) {
      break;
    }
    outcome = { ...(await runOnce(step, values, context)), attempts: attempt };
    if (outcome.status !== 'failed' || context.signal.aborted) {
      break;
    }
  }
  return { ...outcome, durationMs: performance.now() - started };
}

/** Whether `runIf` holds, given the steps that finished before this one's group. */
export function shouldRun(runIf: RunIf, earlier: ReadonlyMap<string, StepOutcome>): boolean {
  const failing = [...earlier.values()].some((outcome) => outcome.status === 'failed' && !outcome.continueOnError);
  if (runIf === 'always') {
    return true;
  }
  if (runIf === 'success' || runIf === 'failure') {
    return (runIf === 'failure') === failing;
  }
  const target = earlier.get(runIf.step);
  if (target === undefined || (target.status !== 'succeeded' && target.status !== 'failed')) {
    return false;
  }
  if ('exitCode' in runIf) {
    const codes: readonly number[] = typeof runIf.exitCode === 'number' ? [runIf.exitCode] : runIf.exitCode;
    return target.exitCode !== undefined && codes.includes(target.exitCode);
  }
  return target.stdout.includes(runIf.outputContains);
}

async function runOnce(step: CompiledStep, values: ToolInput, context: ToolRunContext): Promise<StepOutcome> {
  const base = { name: step.name, continueOnError: step.continueOnError, attempts: 1, durationMs: 0 };
  const signal = step.timeoutMs === undefined ? context.signal : AbortSignal.any([context.signal, AbortSignal.timeout(step.timeoutMs)]);
  let result: ToolResult;
  try {
    result = step.kind === 'handler' ? await step.run(values, { ...context, signal }) : await callStep(step, values, { ...context, signal });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ...base, status: context.signal.aborted ? 'cancelled' : 'failed', output: message, stdout: '' };
  }
  const exitCode = result.details?.exitCode ?? (result.isError ? 1 : 0);
  const status = result.isError ? (context.signal.aborted ? 'cancelled' : 'failed') : 'succeeded';
  // Like $(...) in a shell: the trailing newlines of the output are not part of the value.
  return { ...base, status, exitCode, output: result.text, stdout: (result.details?.stdout ?? result.text).replace(/\n+$/, '') };
}

/** A `tool` step: its `with` filled in (a whole `{{x}}` keeps the value's type), then the call. */
function callStep(step: Extract<CompiledStep, { kind: 'tool' }>, values: ToolInput, context: ToolRunContext): Promise<ToolResult> {
  if (context.callTool === undefined) {
    throw new Error(`step "${step.name}" cannot call "${step.tool}" here: no registry to call it through`);
  }
  const input: Record<string, unknown> = {};
  for (const [key, value] of step.with) {
    input[key] = 'template' in value ? fillValue(value.template, values) : value.value;
  }
  // The step's signal: the tool's timeout and the step's own stop the called tool too.
  return context.callTool(step.tool, input, context.signal);
}

/** Waits `ms`; false when the signal aborted meanwhile. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve(true);
    }, ms);
    const stop = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}
