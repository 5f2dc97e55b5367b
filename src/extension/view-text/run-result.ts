/**
 * What Run Tool shows a person: the result document (what ran, how it ended and how long it took,
 * the input and the output) and the one-line message when a run fails or is cancelled. Pure text
 * (no `vscode` import).
 */
import { formatSize, partBytes } from '../../core/content/parts';
import type { ContentPart, ToolResult } from '../../core/types';
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
  /** The person cancelled it: not a failure of the tool. */
  readonly cancelled?: boolean;
  /** The locale dates are written in (VS Code's display language); the runtime's by default. */
  readonly locale?: string;
}

/** "640 ms", "1.2 s", "2 min 5 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) {
    return `${Math.round(ms)} ms`;
  }
  if (ms < 60_000) {
    return `${(ms / 1000).toFixed(1).replace(/\.0$/, '')} s`;
  }
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** "succeeded", "failed (exit code 2)", "failed", "cancelled". */
export function outcomeOf(result: ToolResult, cancelled = false): string {
  if (cancelled) {
    return 'cancelled';
  }
  const exitCode = result.details?.exitCode;
  if (!result.isError) {
    return 'succeeded';
  }
  return exitCode === undefined ? 'failed' : `failed (exit code ${exitCode})`;
}

/** The heading: what happened and how long it took ("cancelled after" for a cancelled run). */
function headline(run: ToolRun): string {
  const outcome = outcomeOf(run.result, run.cancelled);
  return `# ${run.name} ${outcome} ${run.cancelled === true ? 'after' : 'in'} ${formatDuration(run.elapsedMs)}`;
}

/** JSON text (an object or an array) indented for reading; undefined for anything else. */
export function prettyJson(text: string): string | undefined {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) {
    return undefined;
  }
  try {
    return JSON.stringify(JSON.parse(trimmed) as unknown, null, 2);
  } catch {
    return undefined;
  }
}

/** The output section: an HTTP body or a whole output that is JSON is shown indented, as JSON. */
function outputSection(result: ToolResult, cancelled: boolean): string {
  const title = cancelled ? 'Output until it was cancelled' : result.isError ? 'Error' : 'Result';
  const body = result.details?.httpStatus === undefined ? undefined : result.details.stdout;
  const json = prettyJson(body ?? result.text);
  if (json !== undefined) {
    const status = body === undefined ? '' : `${result.text.split('\n')[0] ?? ''}\n\n`;
    return `## ${title}\n\n${status}${codeBlock(json, 'json')}`;
  }
  return `## ${title}\n\n${codeBlock(result.text === '' ? '(no output)' : result.text, 'text')}`;
}

/**
 * The result document: a Markdown source, read as text in a read-only editor (so nothing is
 * escaped; tool names are plain by their pattern).
 */
export function formatRunResult(run: ToolRun): string {
  const { result } = run;
  const facts = [
    `- Ran: ${run.startedAt.toLocaleString(run.locale)}, took ${formatDuration(run.elapsedMs)}`,
    ...(result.details?.exitCode === undefined ? [] : [`- Exit code: ${result.details.exitCode}`]),
    ...(result.resources === undefined ? [] : [`- The whole output (${result.resources.reduce((sum, part) => sum + part.size, 0)} bytes) opens beside this document`]),
    ...(result.content === undefined ? [] : [`- Content: ${result.content.map(partSummary).join(', ')} (images and audio are described below, not shown)`]),
  ];
  // The exact command of this run (expanded argv, final URL) when the tool reports it.
  const ran = result.details?.ran;
  return [
    headline(run),
    facts.join('\n'),
    ran === undefined ? `## What it runs\n\n${codeBlock(run.runs, 'text')}` : `## What ran\n\n${codeBlock(ran, 'text')}`,
    `## Input\n\n${codeBlock(JSON.stringify(run.input, null, 2), 'json')}`,
    outputSection(result, run.cancelled === true),
    '',
  ].join('\n\n');
}

/** "text", "image/png 70 bytes", "resource test://x": one part in the facts line. */
function partSummary(part: ContentPart): string {
  switch (part.type) {
    case 'image':
    case 'audio':
      return `${part.mimeType} ${formatSize(partBytes(part))}`;
    case 'resource':
      return `resource ${part.resource.uri}`;
    case 'resource_link':
      return `link ${part.uri}`;
    default:
      return part.type;
  }
}

/** The first line of why, as a clause (without its own closing period: the sentence adds one). */
function reasonOf(result: ToolResult): string {
  const firstLine = result.text.split('\n').find((line) => line.trim() !== '')?.trim() ?? '';
  const why = firstLine === '' ? 'it gave no reason' : firstLine.length > 200 ? `${firstLine.slice(0, 200)}…` : firstLine;
  return why.replace(/\.+$/, '');
}

/** The notification when a run by hand fails: what failed, after how long, and the first line of why. */
export function failureMessage(name: string, result: ToolResult, elapsedMs: number): string {
  return `${name} ${outcomeOf(result)} after ${formatDuration(elapsedMs)}: ${reasonOf(result)}. The result document has the whole output.`;
}

/** The notification when the person cancelled a run: no failure, and how long it ran. */
export function cancelledMessage(name: string, elapsedMs: number): string {
  return `${name} was cancelled after ${formatDuration(elapsedMs)}.`;
}
