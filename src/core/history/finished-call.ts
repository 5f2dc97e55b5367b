/**
 * The record of a call, taken when the call ends as the one JSON line the history will write: the
 * input redacted, the output cut to OUTPUT_KEPT_CHARS, encoded in UTF-8 into memory outside V8's
 * heap (kept-bytes.ts), so the whole result can be freed at once and the batch is written as it
 * lies, with nothing copied or serialized again (history-file.ts).
 *
 * The kept output's JSON is the one serialization of it in the process: the record's line is
 * written around it, and the MCP wire, which writes the same text in the answer a moment later,
 * takes it from here (outputJsonOf, mcp/answer-json.ts) instead of escaping 10 KB again. A 10 KB
 * read's record used to cost a second JSON.stringify of its output, the largest part of what
 * recording a call cost.
 */
import type { ToolResult } from '../types';
import type { CallRecord, Door } from './call-record';
import { OUTPUT_KEPT_CHARS, redactInput } from './call-record';
import type { KeptLine } from './kept-bytes';
import { keptLine } from './kept-bytes';

/**
 * A call that ended, as the history holds it until written: its record as one JSON line, newline
 * included, in UTF-8 (`line`), to be released once written or dropped (kept-bytes.ts).
 */
export type FinishedCall = KeptLine;

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
 * The record of a call that just ended, encoded at once while its output's JSON is fresh (see the
 * file comment). Every field is present, absent ones as undefined (JSON leaves them out): one
 * object shape for every record, which V8 builds and serializes faster than conditional spreads.
 */
export function finishedCall(tool: string, input: unknown, result: ToolResult, facts: CallFacts): FinishedCall {
  const details = result.details;
  const text = result.text;
  const headWith = (recordedInput: unknown): string =>
    JSON.stringify({
      time: new Date(facts.started).toISOString(),
      door: facts.door,
      caller: facts.caller,
      tool,
      workspace: facts.workspace,
      input: recordedInput,
      ran: details?.ran,
      exitCode: details?.exitCode,
      httpStatus: details?.httpStatus,
      sandbox: details?.sandbox,
      durationMs: Math.round(facts.durationMs * 10) / 10,
      outputBytes: Buffer.byteLength(text),
      isError: result.isError,
    } satisfies Omit<Record<keyof CallRecord, unknown>, 'output' | 'dropped'>);
  let head: string;
  try {
    head = headWith(redactInput(input ?? {}));
  } catch (error) {
    // An input JSON cannot hold (a BigInt, a cycle, a getter that throws: an extension's
    // invokeTool may pass anything): the call is recorded without it, and never fails for it.
    head = headWith(`[not recorded: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}]`);
  }
  return keptLine(head.slice(0, -1), ',"output":', keptOutputJson(text), '}\n');
}

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
 * The JSON of the first OUTPUT_KEPT_CHARS of a result's text, with a note when cut. A text kept
 * whole is remembered for outputJsonOf.
 */
function keptOutputJson(text: string): string {
  if (text.length <= OUTPUT_KEPT_CHARS) {
    const escaped = JSON.stringify(text);
    if (recentKept.unshift({ text, json: escaped }) > RECENT_KEPT) {
      recentKept.pop();
    }
    return escaped;
  }
  // JSON.stringify copies, so the cut does not keep the whole text alive through a sliced string.
  return JSON.stringify(`${text.slice(0, OUTPUT_KEPT_CHARS)}\n[cut in the history at ${OUTPUT_KEPT_CHARS} characters]`);
}

/**
 * `line` as written after records were dropped before it: the count first (`{"dropped":3,...`),
 * as bytes to write one after the other.
 */
export function withDropped(line: Buffer, dropped: number): readonly Buffer[] {
  return dropped === 0 ? [line] : [Buffer.from(`{"dropped":${dropped},`), line.subarray(1)];
}
