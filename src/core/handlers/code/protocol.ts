/**
 * The messages between a code tool's sandbox and the process that started it: one JSON object per
 * line on the child's fd 3 (a socket pair), so the parent can cap every message it reads.
 */

/** The parent's first message: what to run. */
export interface RunMessage {
  readonly type: 'run';
  /** The module as JavaScript (types stripped). */
  readonly code: string;
  /** The module's file URL, for stack traces. */
  readonly url: string;
  readonly input: unknown;
  readonly workspaceFolder: string;
  /** Cap on the result text in bytes: the rest is cut with a note. */
  readonly maxResultBytes: number;
  /** Most callTool calls unanswered at once; the runner queues the rest (the parent refuses more). */
  readonly maxCallsInFlight: number;
  /** The permissions the sandbox was started with, checked before the module loads. */
  readonly expect: SandboxExpectation;
}

/** What the runner checks of the permission model before it loads the module. */
export interface SandboxExpectation {
  readonly childProcess: boolean;
  /** Whether writing inside the workspace folder is allowed. */
  readonly write: boolean;
  /** A path outside every granted one, which must not be readable (none when the folder is a root). */
  readonly unreadable?: string;
}

/** The answer to a child's callTool. */
export interface ToolResultMessage {
  readonly type: 'toolResult';
  readonly id: number;
  readonly result: { readonly text: string; readonly isError: boolean; readonly structured?: unknown };
}

/** The answer to a child's elicit: the user's answer, or why there is none (the door cannot ask...). */
export interface ElicitResultMessage {
  readonly type: 'elicitResult';
  readonly id: number;
  readonly answer?: { readonly action: 'accept' | 'decline' | 'cancel'; readonly content?: Readonly<Record<string, unknown>> };
  readonly error?: string;
}

/** The call was cancelled: the child's `signal` aborts; the parent kills it soon after. */
export interface CancelMessage {
  readonly type: 'cancel';
}

export type ToSandbox = RunMessage | ToolResultMessage | ElicitResultMessage | CancelMessage;

/** An error as it crosses the channel. */
export interface WireError {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
  /** Node's error code: ERR_ACCESS_DENIED, ERR_DLOPEN_DISABLED, ERR_UNSUPPORTED_RESOLVE_REQUEST... */
  readonly code?: string;
  /** For ERR_ACCESS_DENIED: the permission that was missing (FileSystemRead, ChildProcess...). */
  readonly permission?: string;
  readonly resource?: string;
}

/** Where the child failed: loading the module, running it, or turning its value into a result. */
export type FailurePhase = 'sandbox' | 'load' | 'run' | 'result';

export type FromSandbox =
  | { readonly type: 'progress'; readonly message: string }
  | { readonly type: 'log'; readonly message: string }
  | { readonly type: 'callTool'; readonly id: number; readonly name: string; readonly input: unknown }
  | { readonly type: 'elicit'; readonly id: number; readonly message: string; readonly requestedSchema: unknown }
  /** `content`: the parts the module returned, each checked (content/parts.ts), whole or not at all. */
  | { readonly type: 'result'; readonly text: string; readonly structured?: unknown; readonly content?: readonly unknown[]; readonly droppedBytes?: number }
  | { readonly type: 'error'; readonly phase: FailurePhase; readonly error: WireError };
