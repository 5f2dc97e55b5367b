/**
 * One tool call as the history keeps it: when, through which door, which tool with which input
 * (secrets redacted), what ran, how it ended. Taken when the call ends (finished-call.ts) and
 * written after the result was returned (history-file.ts).
 */
import { redactSecrets } from '../redact';
import type { RunSandbox } from '../types';

/** Where a call came from. */
export type Door = 'mcp' | 'lm' | 'run-tool' | 'test' | 'cli' | 'bridge';

export interface CallRecord {
  /** ISO time the call started. */
  readonly time: string;
  readonly door: Door;
  /** Who called through the door, when it says (an outside agent through the editor bridge: CallOptions.caller). */
  readonly caller?: string;
  readonly tool: string;
  /** The first workspace folder: one history file may hold several workspaces. */
  readonly workspace?: string;
  /** The input as the model sent it, with secret-looking values replaced by "***". */
  readonly input: unknown;
  /** What ran: the expanded argv, the method and URL, or the file read. */
  readonly ran?: string;
  readonly exitCode?: number;
  readonly httpStatus?: number;
  /** A shell or imported tool's program: whether it ran in the OS sandbox, under which policy (or why not). */
  readonly sandbox?: RunSandbox;
  readonly durationMs: number;
  /** Size of the result's text in bytes (UTF-8). */
  readonly outputBytes: number;
  readonly isError: boolean;
  /** The result's text, up to OUTPUT_KEPT_CHARS (the rest is counted in outputBytes). */
  readonly output: string;
  /**
   * How many calls just before this one are missing from the history: the writer could not keep
   * up and dropped the oldest records waiting to be written. Absent when none were.
   */
  readonly dropped?: number;
}

/** How much of each result the history keeps: enough to see what happened, not a log archive. */
export const OUTPUT_KEPT_CHARS = 16 * 1024;

/** Property names whose values are secrets wherever they appear in an input. */
const SECRET_NAME = /token|passw(or)?d|passwd|secret|api[-_]?key|apikey|auth|credential|private[-_]?key|session|cookie/i;

/** How deep redactInput walks; what lies deeper is left out of the record, never written unredacted. */
const REDACTED_DEPTH = 32;

/**
 * The input with every value under a secret-looking name replaced by "***", down to
 * REDACTED_DEPTH levels, and URLs and known token shapes in the other strings redacted
 * (redactSecrets). An object or array deeper than that is replaced by a note: it used to be kept
 * as it was, so a secret nested 33 levels down reached the history file.
 */
export function redactInput(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    return redactSecrets(value);
  }
  if (value === null || typeof value !== 'object') {
    return value;
  }
  if (depth > REDACTED_DEPTH) {
    return `[deeper than ${REDACTED_DEPTH} levels: not recorded]`;
  }
  if (Array.isArray(value)) {
    return value.map((item) => redactInput(item, depth + 1));
  }
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, SECRET_NAME.test(key) ? '***' : redactInput(item, depth + 1)]),
  );
}
