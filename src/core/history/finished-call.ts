/**
 * The record of a call, taken in two steps so that recording costs the call next to nothing:
 * when the call ends, only what the history keeps is taken from the result (the output cut to
 * OUTPUT_KEPT_CHARS, copied, so the whole result can be freed at once); the input is redacted
 * later, when the history writes the record.
 */
import type { ToolResult } from '../types';
import type { CallRecord, Door } from './call-record';
import { OUTPUT_KEPT_CHARS, redactInput } from './call-record';

/** A call that ended, as the history holds it until written: nothing of the result but what is kept. */
export interface FinishedCall extends Omit<CallRecord, 'dropped'> {
  /** The input as the model sent it: redacted when written (recordOf), not before. */
  readonly input: unknown;
}

/** How the call went, besides the tool, its input and its result. */
export interface CallFacts {
  readonly door: Door;
  readonly caller?: string;
  /** Epoch milliseconds when the call started. */
  readonly started: number;
  readonly durationMs: number;
  readonly workspace: string | undefined;
}

/** What the history keeps of a call that just ended (see the file comment). */
export function finishedCall(tool: string, input: unknown, result: ToolResult, facts: CallFacts): FinishedCall {
  const details = result.details;
  return {
    time: new Date(facts.started).toISOString(),
    door: facts.door,
    ...(facts.caller === undefined ? {} : { caller: facts.caller }),
    tool,
    ...(facts.workspace === undefined ? {} : { workspace: facts.workspace }),
    input: input ?? {},
    ...(details?.ran === undefined ? {} : { ran: details.ran }),
    ...(details?.exitCode === undefined ? {} : { exitCode: details.exitCode }),
    ...(details?.httpStatus === undefined ? {} : { httpStatus: details.httpStatus }),
    ...(details?.sandbox === undefined ? {} : { sandbox: details.sandbox }),
    durationMs: Math.round(facts.durationMs * 10) / 10,
    outputBytes: Buffer.byteLength(result.text),
    isError: result.isError,
    output: keptOutput(result.text),
  };
}

/**
 * The first OUTPUT_KEPT_CHARS of a result's text, with a note when cut. A cut is copied through
 * a Buffer: V8's `slice` of a long string is a view that keeps the whole string alive.
 */
function keptOutput(text: string): string {
  if (text.length <= OUTPUT_KEPT_CHARS) {
    return text;
  }
  const head = Buffer.from(text.slice(0, OUTPUT_KEPT_CHARS), 'utf8').toString('utf8');
  return `${head}\n[cut in the history at ${OUTPUT_KEPT_CHARS} characters]`;
}

/**
 * The record as written: the input redacted, and `dropped` when records before it were dropped
 * because the history could not keep up.
 */
export function recordOf(call: FinishedCall, dropped = 0): CallRecord {
  return { ...call, input: redactInput(call.input), ...(dropped === 0 ? {} : { dropped }) };
}
