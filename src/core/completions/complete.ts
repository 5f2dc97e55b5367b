/**
 * The completion engine: the values of a source (source.ts) that start with what the user typed,
 * at most MAX_COMPLETION_VALUES of them, with how many matched. Independent of what is being
 * completed (a prompt argument, a resource-template variable): the caller passes the source.
 */
import { listFolderFiles } from '../builtins/list-files';
import { classifyOutcome, endedHow } from '../process/outcome';
import { runProcess } from '../process/run-process';
import type { ExecutionLimits, Logger, WorkspaceFolder } from '../types';
import type { CompletionSource } from './source';

/** Most values one answer carries (the MCP spec's cap for `completion/complete`). */
export const MAX_COMPLETION_VALUES = 100;
/** Most workspace files looked at for one file completion, so a huge tree stays fast. */
export const MAX_FILES_SCANNED = 5_000;
/** A completion command's own time limit: completion answers while the user types. */
export const COMPLETION_COMMAND_TIMEOUT_MS = 5_000;
/** Cap on what a completion command prints (stdout and stderr, each). */
export const COMPLETION_COMMAND_OUTPUT_BYTES = 256 * 1024;

/** What completing needs: the folder the source belongs to and how programs may run there. */
export interface CompletionContext {
  readonly folder: WorkspaceFolder;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly limits: ExecutionLimits;
  readonly logger: Logger;
  readonly signal: AbortSignal;
}

/** The answer: the first values, how many matched in all (when known), whether there are more. */
export interface Completion {
  readonly values: readonly string[];
  readonly total: number;
  readonly hasMore: boolean;
}

/** A completion that could not be computed (the command failed, the glob is refused). */
export class CompletionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CompletionError';
  }
}

export const NO_COMPLETION: Completion = { values: [], total: 0, hasMore: false };

/**
 * The values of `source` that start with `prefix` (case-insensitively; those that match its case
 * first). `enum` wins over `complete` when a source has both. Throws CompletionError when a
 * command or listing fails.
 */
export async function complete(source: CompletionSource, prefix: string, context: CompletionContext): Promise<Completion> {
  if (source.enum !== undefined) {
    return matching(source.enum, prefix, false);
  }
  const files = source.complete?.files;
  if (files !== undefined) {
    return completeFiles(files, prefix, context);
  }
  const command = source.complete?.command;
  if (command !== undefined) {
    return matching(await commandValues(command, context), prefix, false);
  }
  return NO_COMPLETION;
}

/** The values that start with `prefix`, the case-exact ones first, capped; `truncated`: the list itself was cut. */
export function matching(values: readonly string[], prefix: string, truncated: boolean): Completion {
  const lower = prefix.toLowerCase();
  const exact: string[] = [];
  const loose: string[] = [];
  for (const value of new Set(values)) {
    if (value.startsWith(prefix)) {
      exact.push(value);
    } else if (value.toLowerCase().startsWith(lower)) {
      loose.push(value);
    }
  }
  const all = [...exact, ...loose];
  return { values: all.slice(0, MAX_COMPLETION_VALUES), total: all.length, hasMore: truncated || all.length > MAX_COMPLETION_VALUES };
}

/** Workspace files (tracked and untracked, not ignored) matching the glob and the prefix. */
async function completeFiles(glob: string, prefix: string, context: CompletionContext): Promise<Completion> {
  const lower = prefix.toLowerCase();
  try {
    const listing = await listFolderFiles(context.folder, glob, MAX_FILES_SCANNED, runContext(context), (file) => file.toLowerCase().startsWith(lower));
    return matching(listing.files, prefix, listing.more);
  } catch (error) {
    throw new CompletionError(`listing files matching "${glob}" failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Runs the command (argv, no shell) in the folder with the completion limits, and returns its
 * stdout's non-empty lines, trimmed. A command that fails or times out is a CompletionError.
 */
async function commandValues(argv: readonly string[], context: CompletionContext): Promise<string[]> {
  const [file, ...args] = argv;
  if (file === undefined) {
    return [];
  }
  const timeoutMs = Math.min(context.limits.timeoutMs, COMPLETION_COMMAND_TIMEOUT_MS);
  const outcome = await runProcess({
    file,
    args,
    cwd: context.folder.path,
    env: context.env,
    timeoutMs,
    maxOutputBytes: Math.min(context.limits.maxOutputBytes, COMPLETION_COMMAND_OUTPUT_BYTES),
    signal: context.signal,
  });
  const end = classifyOutcome(outcome, timeoutMs);
  if (end.kind !== 'ok') {
    const said = outcome.stderr.trim().split('\n').slice(0, 3).join(' ').slice(0, 300);
    throw new CompletionError(`the completion command ${argv.join(' ')} ${endedHow(end)}${said === '' ? '' : `: ${said}`}`);
  }
  const lines = outcome.stdout.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
  // A cut last line is not a real value.
  return outcome.stdoutDroppedBytes > 0 ? lines.slice(0, -1) : lines;
}

/** The tool-run context list-files' machinery takes, from the completion's. */
function runContext(context: CompletionContext): Parameters<typeof listFolderFiles>[3] {
  return { folders: [context.folder], signal: context.signal, limits: context.limits, logger: context.logger, env: context.env };
}
