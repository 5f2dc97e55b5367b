import { spawn } from 'node:child_process';
import { CappedBuffer } from './capped-buffer';

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
}

/** What happened. Exactly one of the outcome flags explains an early end. */
export interface ProcessOutcome {
  /** Exit code, or null when the process was killed by a signal or never started. */
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  /** Set when the program could not be started at all (for example ENOENT). */
  readonly spawnError?: string;
  readonly durationMs: number;
}

const IS_WINDOWS = process.platform === 'win32';

/**
 * Spawns a program with an argv (no shell), captures capped output, and kills its whole
 * process tree on timeout, on cancellation and when it exits leaving children behind
 * (a background `sleep 100 &` must not outlive the tool call).
 */
export function runProcess(request: ProcessRequest): Promise<ProcessOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    if (request.signal?.aborted) {
      resolve(notStarted(started, { cancelled: true, stderr: 'cancelled before start' }));
      return;
    }
    const child = spawn(request.file, [...request.args], {
      cwd: request.cwd,
      env: request.env as NodeJS.ProcessEnv,
      shell: false,
      windowsHide: true,
      // Own process group on POSIX, so the group id kills every descendant at once.
      detached: !IS_WINDOWS,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stdout = new CappedBuffer(request.maxOutputBytes);
    const stderr = new CappedBuffer(request.maxOutputBytes);
    let timedOut = false;
    let cancelled = false;
    let spawnError: string | undefined;
    let settled = false;

    const killTree = (): void => killProcessTree(child.pid);
    const timer = setTimeout(() => {
      timedOut = true;
      killTree();
    }, request.timeoutMs);
    const onAbort = (): void => {
      cancelled = true;
      killTree();
    };
    request.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    // EPIPE when the program does not read its stdin is not an error of ours.
    child.stdin.on('error', () => undefined);
    child.stdin.end(request.stdin ?? '');

    child.on('error', (error) => {
      spawnError = error.message;
      finish(null);
    });
    // 'exit' comes before the pipes close; leftover descendants would keep them open.
    child.on('exit', () => killTree());
    child.on('close', (code) => finish(code));

    function finish(code: number | null): void {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      resolve({
        exitCode: code,
        stdout: stdout.text(),
        stderr: stderr.text(),
        timedOut,
        cancelled,
        ...(spawnError === undefined ? {} : { spawnError }),
        durationMs: performance.now() - started,
      });
    }
  });
}

/** Kills a process and all of its descendants; quiet when they are already gone. */
export function killProcessTree(pid: number | undefined): void {
  if (pid === undefined) {
    return;
  }
  try {
    if (IS_WINDOWS) {
      spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true, stdio: 'ignore' });
    } else {
      process.kill(-pid, 'SIGKILL');
    }
  } catch {
    // ESRCH: the group has already exited.
  }
}

function notStarted(
  started: number,
  extra: { cancelled: boolean; stderr: string },
): ProcessOutcome {
  return {
    exitCode: null,
    stdout: '',
    stderr: extra.stderr,
    timedOut: false,
    cancelled: extra.cancelled,
    durationMs: performance.now() - started,
  };
}
