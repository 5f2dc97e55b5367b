/**
 * The record of a call, taken in two steps so that recording costs the call next to nothing:
 * when the call ends, only what the history keeps is taken from the result (the output cut to
 * OUTPUT_KEPT_CHARS, as its JSON in UTF-8 bytes outside V8's heap (kept-bytes.ts), so the whole
 * result can be freed at once); the input is redacted later, when the history writes the record.
 *
 * The kept output's JSON is the one serialization of it in the process: the record's line is
 * written around it (recordLineParts), and the MCP wire, which writes the same text in the answer a
 * moment later, takes it from here (outputJsonOf, mcp/answer-json.ts) instead of escaping 10 KB
 * again. A 10 KB read's record used to cost a second JSON.stringify of its output, the largest
 * part of what recording a call cost.
 */
import type { ToolResult } from '../types';
import type { CallRecord, Door } from './call-record';
import { OUTPUT_KEPT_CHARS, redactInput } from './call-record';
import { keptBytes } from './kept-bytes';

/**
 * A call that ended, as the history holds it until written: nothing of the result but what is
 * kept. The fields of CallRecord, each present (undefined where the record leaves it out), and
 * the output as its JSON.
 */
export interface FinishedCall {
  readonly time: string;
  readonly door: Door;
  /** Who called through the door, when it says (CallRecord.caller). */
  readonly caller: string | undefined;
  readonly tool: string;
  readonly workspace: string | undefined;
  /** The input as the model sent it: redacted when written (recordLineParts), not before. */
  readonly input: unknown;
  readonly ran: string | undefined;
  readonly exitCode: number | undefined;
  readonly httpStatus: number | undefined;
  readonly sandbox: CallRecord['sandbox'];
  readonly durationMs: number;
  readonly outputBytes: number;
  readonly isError: boolean;
  /** The kept output (CallRecord.output) as a JSON string literal, quotes included, in UTF-8 (kept-bytes.ts). */
  readonly outputJson: Buffer;
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

/**
 * What the history keeps of a call that just ended (see the file comment). Every field is
 * present, absent ones as undefined (JSON leaves them out): one object shape for every record,
 * which V8 builds and serializes faster than the shapes conditional spreads made.
 */
export function finishedCall(tool: string, input: unknown, result: ToolResult, facts: CallFacts): FinishedCall {
  const details = result.details;
  const output = keptOutput(result.text);
  return {
    time: new Date(facts.started).toISOString(),
    door: facts.door,
    caller: facts.caller,
    tool,
    workspace: facts.workspace,
    input: input ?? {},
    ran: details?.ran,
    exitCode: details?.exitCode,
    httpStatus: details?.httpStatus,
    sandbox: details?.sandbox,
    durationMs: Math.round(facts.durationMs * 10) / 10,
    outputBytes: output.textBytes,
    isError: result.isError,
    outputJson: output.json,
  };
}

/** String.prototype.isWellFormed (ES2024, in every Node this runs on): no lone surrogate. */
const isWellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * The outputs kept whole by the last calls to end, and their JSON: what the wire's
 * answers of those calls reuse. A few, for calls in flight together; an entry goes when its
 * answer takes it, so a result's text is not held past its answer (held, it would outlive young
 * garbage collections, each a copy of it).
 */
const recentKept: Array<{ readonly text: string; readonly json: string }> = [];
const RECENT_KEPT = 4;

/**
 * The JSON of `text` when it is the output of a call that just ended and was kept whole (an
 * answer about to be written), else undefined; taken once. Strings of equal length are compared
 * by content, so a different text never gets another's JSON.
 */
export function outputJsonOf(text: string): string | undefined {
  const index = recentKept.findIndex((kept) => kept.text === text);
  if (index === -1) {
    return undefined;
  }
  const [kept] = recentKept.splice(index, 1);
  return kept?.json;
}

/**
 * The JSON of the first OUTPUT_KEPT_CHARS of a result's text in UTF-8, with a note when cut. A text
 * kept whole is remembered for outputJsonOf. With the text's size in UTF-8 bytes.
 */
function keptOutput(text: string): { readonly json: Buffer; readonly textBytes: number } {
  if (text.length <= OUTPUT_KEPT_CHARS) {
    const escaped = JSON.stringify(text);
    const json = keptBytes(escaped);
    if (recentKept.unshift({ text, json: escaped }) > RECENT_KEPT) {
      recentKept.pop();
    }
    // The text's UTF-8 size without encoding it again: the JSON holds every character of the text
    // as it is, besides the quotes and escapes, which are ASCII (a byte a character). Not so a lone
    // surrogate, which JSON escapes in six characters and UTF-8 writes in three bytes (U+FFFD):
    // such a text is measured (isWellFormed answers at once for a one-byte string).
    const textBytes = isWellFormed(text) ? json.length - escaped.length + text.length : Buffer.byteLength(text);
    return { json, textBytes };
  }
  // JSON.stringify copies, so the cut does not keep the whole text alive through a sliced string.
  const json = keptBytes(JSON.stringify(`${text.slice(0, OUTPUT_KEPT_CHARS)}\n[cut in the history at ${OUTPUT_KEPT_CHARS} characters]`));
  return { json, textBytes: Buffer.byteLength(text) };
}

/**
 * The record as written, one JSON line without its newline, in parts to be written one after the
 * other (AppendHandle.appendLines): the input redacted, `dropped` when records before it were
 * dropped because the history could not keep up, and the output's JSON last.
 */
export function recordLineParts(call: FinishedCall, dropped = 0): ReadonlyArray<string | Buffer> {
  const head = JSON.stringify({
    time: call.time,
    door: call.door,
    caller: call.caller,
    tool: call.tool,
    workspace: call.workspace,
    input: redactInput(call.input),
    ran: call.ran,
    exitCode: call.exitCode,
    httpStatus: call.httpStatus,
    sandbox: call.sandbox,
    durationMs: call.durationMs,
    outputBytes: call.outputBytes,
    isError: call.isError,
    dropped: dropped === 0 ? undefined : dropped,
  });
  return [head.slice(0, -1), ',"output":', call.outputJson, '}'];
}
