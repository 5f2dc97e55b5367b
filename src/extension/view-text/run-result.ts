/**
 * What Run Tool shows a person: the result document (what ran, how it ended, the input and the
 * output) and the one-line message when a run fails. Pure text (no `vscode` import).
 */
import type { ToolResult } from '../../core/types';
import { codeBlock } from './describe-file';

/** One run of a tool by hand. */
export interface ToolRun {
  readonly name: string;
  /** What the tool runs (its handler summary: the command template, script, URL or built-in). */
  readonly runs: string;
  readonly input: unknown;
  readonly result: ToolResult;
  readonly elapsedMs: number;
  /** When the run started, for the document's header. */
  readonly startedAt: Date;
}

/** "succeeded", "failed (exit code 2)", "failed". */
export function outcomeOf(result: ToolResult): string {
  const exitCode = result.details?.exitCode;
  if (!result.isError) {
    return 'succeeded';
  }
  return exitCode === undefined ? 'failed' : `failed (exit code ${exitCode})`;
}

/**
 * The result document: a Markdown source, read as text in a read-only editor (so nothing is
 * escaped; tool names are plain by their pattern).
 */
export function formatRunResult(run: ToolRun): string {
  const { result } = run;
  const facts = [
    `- Ran: ${run.startedAt.toLocaleString()}, took ${Math.round(run.elapsedMs)} ms`,
    ...(result.details?.exitCode === undefined ? [] : [`- Exit code: ${result.details.exitCode}`]),
    ...(result.resources === undefined ? [] : [`- The whole output (${result.resources.reduce((sum, part) => sum + part.size, 0)} bytes) opens beside this document`]),
  ];
  // The exact command of this run (expanded argv, final URL) when the tool reports it.
  const ran = result.details?.ran;
  return [
    `# ${run.name} ${outcomeOf(result)}`,
    facts.join('\n'),
    ran === undefined ? `## What it runs\n\n${codeBlock(run.runs, 'text')}` : `## What ran\n\n${codeBlock(ran, 'text')}`,
    `## Input\n\n${codeBlock(JSON.stringify(run.input, null, 2), 'json')}`,
    `## ${result.isError ? 'Error' : 'Result'}\n\n${codeBlock(result.text === '' ? '(no output)' : result.text, 'text')}`,
    '',
  ].join('\n\n');
}

/** The notification when a run by hand fails: what failed and the first line of why. */
export function failureMessage(name: string, result: ToolResult): string {
  const firstLine = result.text.split('\n').find((line) => line.trim() !== '')?.trim() ?? '';
  const why = firstLine === '' ? 'it gave no reason' : firstLine.length > 200 ? `${firstLine.slice(0, 200)}…` : firstLine;
  return `${name} ${outcomeOf(result)}: ${why}. The result document has the whole output.`;
}
