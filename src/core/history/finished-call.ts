/**
 * The record of a call, taken when the call ends: what its head will say, as plain values and the
 * input's JSON as it was, and the output cut to OUTPUT_KEPT_CHARS, encoded in UTF-8 into memory
 * outside V8's heap (kept-bytes.ts), so the whole result can be freed at once. The head (the
 * input redacted, the time, the rest as JSON) is serialized when the batch is written
 * (history-file.ts), for all its records in one go.
 *
 * Why the head waits for the batch: after a pause, code that runs once a call pays for cold
 * caches. Redacting and serializing each record's head as its call ended cost a 10 KB read about
 * 8 µs of its ~110 after a pause (bench/notes.md, "The call history, fifth pass"); in the batch's
 * loop the same work runs warm. What the head needs is captured at once, so a value changed after
 * the call never reaches the record, and nothing keeps the result alive.
 *
 * The kept output's JSON is the one serialization of it in the process: the record's line is
 * written around it, and the MCP wire, which writes the same text in the answer a moment later,
 * takes it from here (outputJsonOf, mcp/answer-json.ts) instead of escaping 10 KB again.
 */
import type { RunSandbox, ToolResult } from '../types';
import type { CallRecord, Door } from './call-record';
import { OUTPUT_KEPT_CHARS, redactInput } from './call-record';
import type { KeptLine } from './kept-bytes';
import { keptLine } from './kept-bytes';

/** How the call went, besides the tool, its input and its result. */
export interface CallFacts {
  readonly door: Door;
  readonly caller?: string;
  /** Epoch milliseconds when the call started. */
  readonly started: number;
  readonly durationMs: number;
  readonly workspace: string | undefined;
}

/** What a record's head says, captured when its call ended. */
interface RecordHead extends CallFacts {
  readonly tool: string;
  /** The input's JSON as the call had it, or why it could not be recorded. */
  readonly input: { readonly json: string | undefined } | { readonly problem: string };
  readonly ran: string | undefined;
  readonly exitCode: number | undefined;
  readonly httpStatus: number | undefined;
  readonly sandbox: RunSandbox | undefined;
  readonly outputBytes: number;
  readonly isError: boolean;
}

/** A call that ended, as the history holds it until written (see the file comment). */
export class FinishedCall {
  constructor(
    private readonly head: RecordHead,
    /** `,"output":<JSON>}\n`: the end of the record's line, encoded when the call ended. */
    private readonly output: KeptLine,
  ) {}

  /**
   * About how many bytes the record holds while it waits: its kept output and its input's JSON.
   * The history writes early when the records waiting hold many (HistoryLimits.batchBytes).
   */
  get waitingBytes(): number {
    const input = this.head.input;
    return this.output.line.length + ('json' in input ? (input.json?.length ?? 0) : 0);
  }

  /**
   * The record's line as bytes to write one after the other: its head, serialized now, then its
   * kept output. `dropped` records missing just before it are counted first (`{"dropped":3,...`).
   */
  parts(dropped = 0): readonly Buffer[] {
    let head: string;
    try {
      head = headJson(this.head, dropped);
    } catch (error) {
      // Never expected (the input's JSON was taken when the call ended), but one record's head
      // must not lose the batch it is written in: it is written without its input.
      head = headJson({ ...this.head, input: notRecorded(error) }, dropped);
    }
    return [Buffer.from(head), this.output.line];
  }

  /** The bytes are written or dropped and will not be read again (KeptLine.release). */
  release(): void {
    this.output.release();
  }
}

/**
 * The record of a call that just ended (see the file comment). Only plain values are kept of the
 * result: its details may hold the whole output (an HTTP tool's `stdout`).
 */
export function finishedCall(tool: string, input: unknown, result: ToolResult, facts: CallFacts): FinishedCall {
  const details = result.details;
  const text = result.text;
  return new FinishedCall(
    {
      door: facts.door,
      caller: facts.caller,
      started: facts.started,
      durationMs: facts.durationMs,
      workspace: facts.workspace,
      tool,
      input: inputJson(input),
      ran: details?.ran,
      exitCode: details?.exitCode,
      httpStatus: details?.httpStatus,
      sandbox: details?.sandbox,
      outputBytes: Buffer.byteLength(text),
      isError: result.isError,
    },
    keptLine(',"output":', keptOutputJson(text), '}\n'),
  );
}

/**
 * The input's JSON now, or why it has none: an input JSON cannot hold (a BigInt, a cycle, a getter
 * that throws: an extension's invokeTool may pass anything) is recorded as such, and never fails
 * the call.
 */
function inputJson(input: unknown): RecordHead['input'] {
  try {
    return { json: JSON.stringify(input ?? {}) };
  } catch (error) {
    return notRecorded(error);
  }
}

function notRecorded(error: unknown): { readonly problem: string } {
  return { problem: `[not recorded: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}]` };
}

/**
 * The head of a record's line: its JSON object without the closing brace, the output's part
 * following. Every field is present, absent ones as undefined (JSON leaves them out): one object
 * shape for every record, which V8 builds and serializes faster than conditional spreads.
 */
function headJson(head: RecordHead, dropped: number): string {
  const input = head.input;
  const json = JSON.stringify({
    dropped: dropped === 0 ? undefined : dropped,
    time: new Date(head.started).toISOString(),
    door: head.door,
    caller: head.caller,
    tool: head.tool,
    workspace: head.workspace,
    input: 'problem' in input ? input.problem : input.json === undefined ? undefined : redactInput(JSON.parse(input.json)),
    ran: head.ran,
    exitCode: head.exitCode,
    httpStatus: head.httpStatus,
    sandbox: head.sandbox,
    durationMs: Math.round(head.durationMs * 10) / 10,
    outputBytes: head.outputBytes,
    isError: head.isError,
  } satisfies Omit<Record<keyof CallRecord, unknown>, 'output'>);
  return json.slice(0, -1);
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
