import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { TreeKillOptions } from '../platform/kill-tree';
import { hostPlatform } from '../platform/platform';
import { spawnableProgram } from '../platform/program-lookup';
import { CappedBuffer } from './capped-buffer';
import { killProcessTree } from './process-tree';

/** How to run one program. It is always spawned without a shell. */
export interface ProcessRequest {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs: number;
  /** Cap for stdout and for stderr, each. */
  readonly maxOutputBytes: number;
  readonly stdin?: string;
  readonly signal?: AbortSignal;
  /**
   * Receives stdout as it arrives instead of capturing it (outcome.stdout is then empty): for a
   * consumer that reads line by line and stops the program (through `signal`) once it has enough.
   */
  readonly onStdout?: (chunk: Buffer) => void;
  /** Sees every stdout and stderr chunk as it arrives, besides the capture (progress reports). */
  readonly observeOutput?: (chunk: Buffer) => void;
  /** Sees every stdout chunk as it arrives, besides the capture (large outputs kept on disk). */
  readonly teeStdout?: (chunk: Buffer) => void;
  /** Windows only: pass args unquoted (cmd.exe /s /c "..." needs its own quoting). */
  readonly windowsVerbatimArguments?: boolean;
  /**
   * POSIX: start the program in its own process group (default true), so a timeout or
   * cancellation kills every descendant at once. That costs a new session per spawn (setsid,
   * and a scheduler autogroup on Linux: 2-8 ms). Pass false for a trusted program that does not
   * leave children behind (git): then only the program itself is killed.
   */
  readonly processGroup?: boolean;
  /**
   * Opens a fourth pipe, the child's fd 3 (a socket pair: both directions), and hands the parent's
   * end to this callback, with the child's pid, once the child is spawned: a message channel
   * (code tools). It is closed when the outcome is resolved.
   */
  readonly channel?: (pipe: Duplex, pid: number | undefined) => void;
}

/** What happened. Exactly one of the outcome flags explains an early end. */
export interface ProcessOutcome {
  /** Exit code, or null when the process was killed by a signal or never started. */
  readonly exitCode: number | null;
  /** The signal that ended the process (for example 'SIGSEGV'), when one did. */
  readonly exitSignal?: string;
  /** What the program printed, up to the cap (without any note: see the dropped counts). */
  readonly stdout: string;
  readonly stderr: string;
  /** Bytes of stdout / stderr beyond the cap that were not kept (0: the stream is complete). */
  readonly stdoutDroppedBytes: number;
  readonly stderrDroppedBytes: number;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  /** Set when the program could not be started at all (for example ENOENT). */
  readonly spawnError?: string;
  /** The error code behind `spawnError` ('ENOENT', 'EACCES', ...), when there is one. */
  readonly spawnErrorCode?: string;
  readonly durationMs: number;
}

/** setTimeout fires at once for delays above this, so longer timeouts are clamped to it. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * After the program exits (or is killed), how long we wait for its pipes to close. A descendant
 * that left the process group (setsid) can hold them open forever; we stop waiting for it.
 */
const PIPE_GRACE_MS = 2_000;
/**
 * After the program exits, how long its pipes may stay open before its tree is walked for what
 * holds them (on Windows the only way to find what a program left behind; see kill-tree.ts).
 */
const HELD_PIPES_MS = 200;

/**
 * Spawns a program with an argv (no shell), captures capped output, and kills its whole
 * process tree on timeout, on cancellation and when it exits leaving children behind
 * (a background `sleep 100 &` must not outlive the tool call).
 */
export function runProcess(request: ProcessRequest): Promise<ProcessOutcome> {
  const started = performance.now();
  if (request.signal?.aborted) {
    return Promise.resolve(notStarted(started, { cancelled: true, stderr: 'cancelled before start' }));
  }
  let child: StartedProcess;
  try {
    child = new StartedProcess({ ...request, withChannel: request.channel !== undefined });
  } catch (error) {
    // Invalid arguments (a NUL byte, a bad cwd type) throw synchronously instead of emitting.
    return Promise.resolve(notStarted(started, { cancelled: false, stderr: '', error }));
  }
  return runStarted(child, request, started);
}

/** What starting a program needs: the spawn half of a ProcessRequest. */
export type StartRequest = Pick<ProcessRequest, 'file' | 'args' | 'cwd' | 'env' | 'windowsVerbatimArguments' | 'processGroup'> & {
  /** Open the fd 3 channel (see ProcessRequest.channel). */
  readonly withChannel?: boolean;
};

/**
 * A program spawned ahead of its run and left waiting, unwatched (a warm sandbox): until
 * runStarted takes it, its handles do not keep this process alive.
 */
export class StartedProcess {
  private failure: NodeJS.ErrnoException | undefined;

  /** Spawns; throws when spawn throws (invalid arguments). */
  constructor(request: StartRequest) {
    this.child = spawn(spawnableProgram(request.file, request.env, request.cwd, hostPlatform()), [...request.args], {
      cwd: request.cwd,
      env: request.env,
      shell: false,
      windowsHide: true,
      windowsVerbatimArguments: request.windowsVerbatimArguments === true,
      // Own process group on POSIX, so the group id kills every descendant at once.
      detached: !hostPlatform().windows && request.processGroup !== false,
      stdio: request.withChannel === true ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
    });
    this.child.on('error', (error: NodeJS.ErrnoException) => {
      this.failure ??= error;
    });
    this.setRef(false);
  }

  readonly child: ChildProcessWithoutNullStreams;

  /** Why it could not be spawned, once its 'error' came. */
  get spawnError(): NodeJS.ErrnoException | undefined {
    return this.failure;
  }

  /** Whether it has neither failed to spawn nor exited (so far: a spawn failure comes as an event). */
  get alive(): boolean {
    return this.failure === undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Whether the child and its pipes keep this process alive. */
  setRef(keepAlive: boolean): void {
    const streams = this.child.stdio as ReadonlyArray<Partial<Socket> | null | undefined>;
    if (keepAlive) {
      this.child.ref();
      streams.forEach((stream) => stream?.ref?.());
    } else {
      this.child.unref();
      streams.forEach((stream) => stream?.unref?.());
    }
  }

  /** Kills its process tree (a warm sandbox nobody needs any more). */
  kill(): void {
    killProcessTree(this.child.pid);
  }
}

/**
 * Supervises a program StartedProcess started, as runProcess does a new one, from now on: output
 * capture, the timeout, cancellation and tree killing. `started` is when the call began.
 */
export function runStarted(program: StartedProcess, request: ProcessRequest, started = performance.now()): Promise<ProcessOutcome> {
  return new Promise((resolve) => {
    const { child } = program;
    if (!program.alive) {
      // Its 'exit' or 'error' has come and gone: there is nothing to watch.
      resolve(notStarted(started, { cancelled: false, stderr: '', error: program.spawnError ?? new Error('the process exited before it was given work') }));
      return;
    }
    program.setRef(true);
    const channel = request.channel === undefined ? undefined : (child.stdio[3] as Duplex | null | undefined);
    if (channel !== undefined && channel !== null) {
      // A child that dies mid-write makes the pipe fail; the outcome says how it ended.
      channel.on('error', () => undefined);
      request.channel?.(channel, child.pid);
    }
    new ChildWatch(child, request, started, resolve).start();
  });
}

/**
 * One child's supervision (output capture, the timeout, cancellation and tree killing), from
 * start to the one outcome: what it printed, how it ended, and
 * the timers and listeners that end it early. Each step is a method; `finish` runs once.
 */
class ChildWatch {
  private readonly stdout: CappedBuffer;
  private readonly stderr: CappedBuffer;
  private readonly ownGroup: boolean;
  private timedOut = false;
  private cancelled = false;
  private settled = false;
  private spawnError: { readonly message: string; readonly code?: string } | undefined;
  private exitSignal: string | undefined;
  private exitCode: number | null = null;
  private timeoutTimer: NodeJS.Timeout | undefined;
  /** Stops waiting for pipes once the tree was killed (an escaped descendant may hold them). */
  private graceTimer: NodeJS.Timeout | undefined;
  /** After a normal exit: walks the tree for what still holds the pipes. */
  private heldTimer: NodeJS.Timeout | undefined;
  private readonly onAbort = (): void => {
    this.cancelled = true;
    this.killTree({ walk: true });
  };

  constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly request: ProcessRequest,
    private readonly started: number,
    private readonly resolve: (outcome: ProcessOutcome) => void,
  ) {
    this.stdout = new CappedBuffer(request.maxOutputBytes);
    this.stderr = new CappedBuffer(request.maxOutputBytes);
    this.ownGroup = request.processGroup !== false;
  }

  start(): void {
    this.timeoutTimer = setTimeout(
      () => {
        this.timedOut = true;
        this.killTree({ walk: true });
      },
      Math.min(Math.max(this.request.timeoutMs, 0), MAX_TIMER_MS),
    );
    this.request.signal?.addEventListener('abort', this.onAbort, { once: true });
    this.captureOutput();
    this.feedStdin();
    this.child.on('error', (error: NodeJS.ErrnoException) => {
      this.spawnError = { message: error.message, ...(error.code === undefined ? {} : { code: error.code }) };
      this.finish(null);
    });
    // 'exit' comes before the pipes close; leftover descendants would keep them open.
    this.child.on('exit', (code, signal) => this.exited(code, signal));
    this.child.on('close', (code) => this.finish(code ?? this.exitCode));
  }

  /**
   * stdout goes to the capture, or to `onStdout` instead (a reader that stops the program once it
   * has enough); `teeStdout` sees it besides (a large output kept on disk); `observeOutput` sees
   * both streams (progress). stderr is always captured.
   */
  private captureOutput(): void {
    const { child, request } = this;
    const onStdout = request.onStdout;
    child.stdout.on('data', onStdout === undefined ? (chunk: Buffer) => this.stdout.push(chunk) : (chunk: Buffer) => onStdout(chunk));
    child.stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    if (request.teeStdout !== undefined) {
      child.stdout.on('data', request.teeStdout);
    }
    const observe = request.observeOutput;
    if (observe !== undefined) {
      child.stdout.on('data', observe);
      child.stderr.on('data', observe);
    }
  }

  private feedStdin(): void {
    // EPIPE when the program does not read its stdin is not an error of ours.
    this.child.stdin.on('error', () => undefined);
    this.child.stdin.end(this.request.stdin ?? '');
  }

  private exited(code: number | null, signal: NodeJS.Signals | null): void {
    this.exitCode = code;
    this.exitSignal = signal ?? undefined;
    this.killTree({ walk: false, exited: true });
    if (this.ownGroup) {
      this.heldTimer = setTimeout(() => killProcessTree(this.child.pid, { walk: true, exited: true }), HELD_PIPES_MS);
    }
  }

  /**
   * `walk`: also find descendants by parent pid (those that left the group, or that taskkill
   * missed). Only on timeout, cancellation and pipes held open: looking at every process costs
   * a few ms (a wmic call on Windows), which a normal exit must not pay.
   */
  private killTree(options: TreeKillOptions): void {
    const { child } = this;
    if (this.ownGroup) {
      killProcessTree(child.pid, options);
    } else if (child.exitCode === null && child.signalCode === null) {
      // Not a group leader: -pid would name our own group (or none). Kill the program alone.
      child.kill('SIGKILL');
    }
    this.graceTimer ??= setTimeout(() => this.finish(this.exitCode), PIPE_GRACE_MS);
  }

  private finish(code: number | null): void {
    if (this.settled) {
      return;
    }
    this.settled = true;
    clearTimeout(this.timeoutTimer);
    clearTimeout(this.graceTimer);
    clearTimeout(this.heldTimer);
    this.request.signal?.removeEventListener('abort', this.onAbort);
    const { child, spawnError } = this;
    child.stdout.destroy();
    child.stderr.destroy();
    (child.stdio[3] as Duplex | null | undefined)?.destroy();
    this.resolve({
      exitCode: code,
      ...(this.exitSignal === undefined ? {} : { exitSignal: this.exitSignal }),
      stdout: this.stdout.text(),
      stderr: this.stderr.text(),
      stdoutDroppedBytes: this.stdout.droppedBytes,
      stderrDroppedBytes: this.stderr.droppedBytes,
      timedOut: this.timedOut,
      cancelled: this.cancelled,
      ...(spawnError === undefined ? {} : { spawnError: spawnError.message }),
      ...(spawnError?.code === undefined ? {} : { spawnErrorCode: spawnError.code }),
      durationMs: performance.now() - this.started,
    });
  }
}

function notStarted(
  started: number,
  extra: { cancelled: boolean; stderr: string; error?: unknown },
): ProcessOutcome {
  const error = extra.error as NodeJS.ErrnoException | undefined;
  return {
    exitCode: null,
    stdout: '',
    stderr: extra.stderr,
    stdoutDroppedBytes: 0,
    stderrDroppedBytes: 0,
    timedOut: false,
    cancelled: extra.cancelled,
    ...(error === undefined ? {} : { spawnError: error.message ?? String(error) }),
    ...(error?.code === undefined ? {} : { spawnErrorCode: error.code }),
    durationMs: performance.now() - started,
  };
}
