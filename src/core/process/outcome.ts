/**
 * How a program run ended, classified and worded in one place. The rule every runner follows
 * (shell, git, ripgrep, code tools, the file reader; ARCHITECTURE.md "Process outcomes"):
 *
 * - the call could not run (the program could not start) or its input is wrong: throw (a
 *   ToolInputError for input the model must change); the registry words it as "Tool ... failed"
 *   or "Invalid input for tool ...". A built-in's git or ripgrep that exits refusing what it was
 *   asked (a bad ref, an invalid pattern) is wrong input too: thrown with the program's message;
 * - it ran and ended badly (a timeout, a cancellation, a signal, or a plugin command's exit code
 *   that is not accepted): return an error result with what it printed. A helper deep inside a
 *   built-in (runGit, the ripgrep search) cannot return one, so it throws ProcessEndedError,
 *   which the built-in returns as its error result (builtins/builtin-tool.ts).
 */
import type { ProcessOutcome } from './run-process';

/** How a run ended: exactly one of these. */
export type ProcessEnd =
  | { readonly kind: 'ok'; readonly exitCode: number }
  | { readonly kind: 'exit-code'; readonly exitCode: number }
  | { readonly kind: 'timeout'; readonly timeoutMs: number }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'signal'; readonly signal: string }
  | { readonly kind: 'not-started'; readonly error: string; readonly code?: string };

/**
 * Classifies an outcome: could not start first (nothing else is true then), then a timeout, a
 * cancellation, a signal, and last the exit code, which is `ok` when `okExitCodes` has it.
 */
export function classifyOutcome(outcome: ProcessOutcome, timeoutMs: number, okExitCodes: readonly number[] = [0]): ProcessEnd {
  if (outcome.spawnError !== undefined) {
    return { kind: 'not-started', error: outcome.spawnError, ...(outcome.spawnErrorCode === undefined ? {} : { code: outcome.spawnErrorCode }) };
  }
  if (outcome.timedOut) {
    return { kind: 'timeout', timeoutMs };
  }
  if (outcome.cancelled) {
    return { kind: 'cancelled' };
  }
  if (outcome.exitCode === null) {
    return { kind: 'signal', signal: outcome.exitSignal ?? 'a signal' };
  }
  return { kind: okExitCodes.includes(outcome.exitCode) ? 'ok' : 'exit-code', exitCode: outcome.exitCode };
}

/**
 * How it ended, as the words after its subject ("The command ...", "git status ..."): the one
 * place each way of ending is worded.
 */
export function endedHow(end: ProcessEnd): string {
  switch (end.kind) {
    case 'ok':
    case 'exit-code':
      return `exited with code ${end.exitCode}`;
    case 'timeout':
      return `timed out after ${end.timeoutMs} ms`;
    case 'cancelled':
      return 'was cancelled';
    case 'signal':
      return `was killed by ${end.signal}`;
    case 'not-started':
      return `could not start: ${end.error}`;
  }
}

/**
 * A program that ran and ended badly, thrown by a helper that cannot return a result itself
 * (runGit, the ripgrep search); the built-in tool returns its message as its error result.
 */
export class ProcessEndedError extends Error {
  override readonly name = 'ProcessEndedError';

  constructor(
    message: string,
    readonly end: ProcessEnd,
  ) {
    super(message);
  }
}
