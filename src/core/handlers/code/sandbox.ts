/**
 * One code tool call: a separate Node process under Node's permission model, started with the
 * runner (code-runner.ts) and told what to run over its fd 3. This file starts it, answers its
 * messages (progress, log, callTool) and collects how it ended; result.ts words the outcome.
 */
import * as path from 'node:path';
import type { Duplex } from 'node:stream';
import { LineSplitter } from '../../process/line-splitter';
import { watchResidentMemory } from '../../process/memory-watch';
import type { ProcessOutcome, StartRequest } from '../../process/run-process';
import { StartedProcess, runStarted } from '../../process/run-process';
import type { AskUser, ToolResult } from '../../types';
import type { FromSandbox, RunMessage, SandboxExpectation, ToSandbox } from './protocol';
import type { SandboxRuntime } from './runtime';
import { SandboxCalls } from './sandbox-calls';
import { SandboxQuestions } from './sandbox-questions';
import type { WarmSandbox } from './warm-sandbox';

/** What the sandbox may do, from the tool's tags. */
export interface SandboxPermissions {
  readonly write: boolean;
  readonly childProcess: boolean;
  readonly network: boolean;
}

/** Everything one call needs. */
export interface SandboxRequest {
  readonly runtime: SandboxRuntime;
  /** The runner script (dist/code-runner.js). */
  readonly runnerPath: string;
  /** The workspace folder: cwd, and the only place the sandbox may read (and write, if allowed). */
  readonly folder: string;
  /** The folder's real path, when it differs (the permission model compares the paths it is given). */
  readonly realFolder: string;
  readonly run: Omit<RunMessage, 'type' | 'expect' | 'maxCallsInFlight'>;
  readonly permissions: SandboxPermissions;
  readonly maxHeapMb: number;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly env: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  readonly onProgress?: (message: string) => void;
  readonly onLog: (message: string) => void;
  readonly callTool?: (name: string, input: unknown, signal?: AbortSignal) => Promise<ToolResult>;
  /** How the module's `elicit` asks the user (the door's, through the registry). */
  readonly ask?: AskUser;
  /** Most callTool calls of this sandbox at once (the nested-call limit). */
  readonly maxCallsInFlight: number;
  /** Where a sandbox started ahead of this call may wait, and the next one is started. */
  readonly warm?: WarmSandbox;
}

/** How the call ended: the process's outcome and the runner's last word, if it had one. */
export interface SandboxOutcome {
  readonly process: ProcessOutcome;
  /** The result or error message the runner sent; undefined when it sent none (killed, crashed). */
  readonly reply?: Extract<FromSandbox, { type: 'result' | 'error' }>;
  /** A message from the child that was not one (too long, not JSON): nothing after it is read. */
  readonly protocolError?: string;
  /** The resident memory (MB) at which the process was killed for passing its cap (Linux). */
  readonly residentMb?: number;
}

/** How long a cancelled sandbox has to see its `signal` abort before its process tree is killed. */
export const CANCEL_GRACE_MS = 100;

/**
 * Resident memory a sandbox may use beyond its heap cap, in MB: Node itself (~40 MB), V8's young
 * generation and code, and Buffers, which the heap cap does not count.
 */
export const RESIDENT_MARGIN_MB = 256;

/** Most log lines taken from one call; the rest are counted, not logged. */
const MAX_LOG_LINES = 1000;

/** The command line: Node's flags for these permissions, then the runner. */
export function sandboxArgs(request: Pick<SandboxRequest, 'runtime' | 'runnerPath' | 'folder' | 'realFolder' | 'permissions' | 'maxHeapMb'>): string[] {
  const { runtime, permissions } = request;
  if (runtime.permissionFlag === undefined) {
    throw new Error(`this runtime (Node ${runtime.nodeVersion}) has no permission model; code tools need Node 20 or later`);
  }
  const folders = [...new Set([request.folder, request.realFolder])];
  return [
    runtime.permissionFlag,
    ...runtime.hardeningFlags,
    // The runner's directory: the bundle is one file, but from source (tests) it is three.
    `--allow-fs-read=${path.dirname(request.runnerPath)}`,
    ...folders.map((folder) => `--allow-fs-read=${folder}`),
    ...(permissions.write ? folders.map((folder) => `--allow-fs-write=${folder}`) : []),
    ...(permissions.childProcess ? ['--allow-child-process'] : []),
    ...(permissions.network && runtime.restrictsNetwork ? ['--allow-net'] : []),
    `--max-old-space-size=${request.maxHeapMb}`,
    // The permission model's ExperimentalWarning would be the first line of every stderr.
    '--no-warnings',
    request.runnerPath,
  ];
}

/** Runs one call in a sandbox process of its own (started now, or ahead of it); never rejects. */
export async function runSandbox(request: SandboxRequest): Promise<SandboxOutcome> {
  const started = performance.now();
  if (request.signal.aborted) {
    return { process: notStarted(undefined) };
  }
  let start: StartRequest;
  let program: StartedProcess;
  try {
    start = { file: request.runtime.execPath, args: sandboxArgs(request), cwd: request.folder, env: request.env, withChannel: true };
    program = request.warm?.take(startKey(start)) ?? new StartedProcess(start);
  } catch (error) {
    return { process: notStarted(error instanceof Error ? error : new Error(String(error))) };
  }
  const outcome = await superviseSandbox(program, start, request, started);
  if (outcome.process.spawnError === undefined) {
    request.warm?.prepare(startKey(start), start);
  }
  return outcome;
}

/** What tells two sandbox starts apart: equal keys start the same process. */
function startKey(start: StartRequest): string {
  return JSON.stringify([start.file, start.args, start.cwd, start.env]);
}

async function superviseSandbox(program: StartedProcess, start: StartRequest, request: SandboxRequest, started: number): Promise<SandboxOutcome> {
  const stop = new AbortController();
  // Aborted once the run is over, however it ended: a nested call or a question still in flight
  // would otherwise run on, or wait, past the tool's own time limit.
  const runEnded = new AbortController();
  const state: { reply?: SandboxOutcome['reply']; protocolError?: string; channel?: Duplex; residentMb?: number } = {};
  let unwatch = (): void => undefined;
  const onCancel = (): void => {
    send(state.channel, { type: 'cancel' });
    setTimeout(() => stop.abort(), CANCEL_GRACE_MS).unref();
  };
  request.signal.addEventListener('abort', onCancel, { once: true });
  try {
    const outcome = await runStarted(program, {
      ...start,
      timeoutMs: request.timeoutMs,
      maxOutputBytes: request.maxOutputBytes,
      signal: stop.signal,
      channel: (pipe, pid) => {
        state.channel = pipe;
        listen(pipe, request, state, () => stop.abort(), runEnded.signal);
        send(pipe, { type: 'run', ...request.run, maxCallsInFlight: request.maxCallsInFlight, expect: expectationOf(request) });
        if (pid !== undefined) {
          unwatch = watchResidentMemory(pid, request.maxHeapMb + RESIDENT_MARGIN_MB, (resident) => {
            state.residentMb = resident;
            stop.abort();
          });
        }
      },
    }, started);
    return {
      process: outcome,
      ...(state.reply === undefined ? {} : { reply: state.reply }),
      ...(state.protocolError === undefined ? {} : { protocolError: state.protocolError }),
      ...(state.residentMb === undefined ? {} : { residentMb: state.residentMb }),
    };
  } finally {
    runEnded.abort();
    unwatch();
    request.signal.removeEventListener('abort', onCancel);
  }
}

/** What the runner checks before it loads the module, so a runtime that ignored a flag runs nothing. */
function expectationOf(request: SandboxRequest): SandboxExpectation {
  const parent = path.dirname(request.realFolder);
  return {
    childProcess: request.permissions.childProcess,
    write: request.permissions.write,
    // A sibling of the folder: outside every path granted (the runner lives elsewhere too).
    ...(parent === request.realFolder ? {} : { unreadable: path.join(parent, `.${path.basename(request.realFolder)}-outside-the-sandbox`) }),
  };
}

/**
 * Reads the runner's messages: progress and log pass through, callTool is answered, the last word
 * is kept. A message that breaks the protocol ends the reading, and a flood of calls the sandbox.
 */
function listen(pipe: Duplex, request: SandboxRequest, state: { reply?: SandboxOutcome['reply']; protocolError?: string }, stopSandbox: () => void, runEnded: AbortSignal): void {
  let logLines = 0;
  const calls = new SandboxCalls(pipe, {
    maxInFlight: request.maxCallsInFlight,
    maxResultBytes: request.maxOutputBytes,
    ...(request.callTool === undefined ? {} : { callTool: request.callTool }),
    runEnded,
    onProtocolError: (message) => {
      state.protocolError ??= message;
      stopSandbox();
    },
  });
  const questions = new SandboxQuestions(pipe, {
    ...(request.ask === undefined ? {} : { ask: request.ask }),
    signal: AbortSignal.any([request.signal, runEnded]),
    onProtocolError: (message) => {
      state.protocolError ??= message;
      stopSandbox();
    },
  });
  // JSON escaping can make text up to 6 times longer; a line beyond this is not a message of the runner's.
  const splitter = new LineSplitter(
    (line) => {
      if (state.protocolError !== undefined) {
        return;
      }
      const message = line.cut ? undefined : parseMessage(line.text);
      if (message === undefined) {
        state.protocolError = line.cut ? 'the sandbox sent a message longer than the output cap allows' : 'the sandbox sent something that is not a message';
        return;
      }
      switch (message.type) {
        case 'progress':
          request.onProgress?.(message.message);
          return;
        case 'log':
          logLines += 1;
          if (logLines <= MAX_LOG_LINES) {
            request.onLog(logLines === MAX_LOG_LINES ? `${message.message} (further log lines of this call are not logged)` : message.message);
          }
          return;
        case 'callTool':
          calls.receive(message);
          return;
        case 'elicit':
          questions.receive(message);
          return;
        default:
          state.reply ??= message;
      }
    },
    0x0a,
    8 * request.maxOutputBytes + 1024 * 1024,
  );
  pipe.on('data', (chunk: Buffer) => splitter.push(chunk));
}

function send(pipe: Duplex | undefined, message: ToSandbox): void {
  if (pipe !== undefined && !pipe.destroyed && pipe.writable) {
    pipe.write(`${JSON.stringify(message)}\n`);
  }
}

/**
 * A line as a message, when it is one. The module can write to fd 3 too: every field the parent
 * uses is checked, so nothing it sends is taken for more than text.
 */
function parseMessage(text: string): FromSandbox | undefined {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) {
    return undefined;
  }
  switch (value['type']) {
    case 'progress':
    case 'log':
      return typeof value['message'] === 'string' ? (value as FromSandbox) : undefined;
    case 'callTool':
      return typeof value['id'] === 'number' && typeof value['name'] === 'string' ? (value as FromSandbox) : undefined;
    case 'elicit':
      return typeof value['id'] === 'number' && typeof value['message'] === 'string' ? (value as FromSandbox) : undefined;
    case 'result': {
      const content = value['content'];
      // Each part is checked with a message for the model when the result is worded (result.ts).
      const partsOk = content === undefined || Array.isArray(content);
      return typeof value['text'] === 'string' && partsOk && (value['droppedBytes'] === undefined || typeof value['droppedBytes'] === 'number') ? (value as FromSandbox) : undefined;
    }
    case 'error': {
      const error = value['error'] as Record<string, unknown> | null | undefined;
      const fields = ['name', 'message', 'stack', 'code', 'permission', 'resource'];
      const wellFormed = typeof error === 'object' && error !== null && typeof error['message'] === 'string' && fields.every((field) => error[field] === undefined || typeof error[field] === 'string');
      return wellFormed && typeof value['phase'] === 'string' ? (value as FromSandbox) : undefined;
    }
    default:
      return undefined;
  }
}

/** The outcome of a sandbox that never started: because of `error`, or (none) a call cancelled first. */
function notStarted(error: Error | undefined): ProcessOutcome {
  return {
    exitCode: null,
    stdout: '',
    stderr: '',
    stdoutDroppedBytes: 0,
    stderrDroppedBytes: 0,
    timedOut: false,
    cancelled: error === undefined,
    ...(error === undefined ? {} : { spawnError: error.message }),
    durationMs: 0,
  };
}

/** The runner script beside this code: dist/code-runner.js in the bundles, the compiled file in tests. */
export function defaultRunnerPath(): string {
  return path.join(__dirname, 'code-runner.js');
}
