/**
 * The channel between the MCP server a VS Code window starts and the window's tools view, for
 * the calls and tasks in progress in the server (issue 39, item 3). The server is started with
 * `--running-file FILE`, FILE in the extension's own storage folder (never in the workspace):
 *
 * - the server rewrites FILE (atomically, at most every RUNNING_FILE_INTERVAL_MS) with its calls
 *   in progress: `{ "pid": 4242, "calls": [{ "id", "tool", "door", "startedAt", "latest" }] }`,
 *   and empties the list when it shuts down;
 * - the window asks for a cancel by writing `FILE.cancel`: `{ "cancel": ["<id>", ...] }`; the
 *   server watches it and cancels each listed call it runs (a task as `tasks/cancel` does: its
 *   process tree is killed). Ids are random UUIDs the server made, and both files live in a folder
 *   only the extension writes, so nothing in a workspace can list or cancel a call.
 */
import { readFileSync } from 'node:fs';
import { writeFileReplacing, writeFileReplacingSync } from '../platform/replace-file';
import { watchForChanges } from '../files/watch-paths';
import type { Disposable, Logger } from '../types';
import type { RunningCall, RunningCalls } from './running-calls';
import { isRunningDoor } from './running-calls';

/** The running file's name in a VS Code window's storage folder. */
export const RUNNING_FILE = 'mcp-running.json';

/** The server rewrites the file at most this often (the latest state wins). */
export const RUNNING_FILE_INTERVAL_MS = 250;
const CANCEL_DEBOUNCE_MS = 50;

/** What the running file holds. */
export interface RunningFile {
  /** The server's process id: a file left by a server that died lists nothing. */
  readonly pid: number;
  readonly calls: readonly RunningCall[];
}

/** Where the window writes its cancel requests for the server publishing to `file`. */
export function cancelFileOf(file: string): string {
  return `${file}.cancel`;
}

/**
 * Publishes `running` to `file` while the server runs and cancels what the window asks for in
 * `cancelFileOf(file)`. Disposing writes an empty list (the server is shutting down).
 */
export function publishRunning(running: RunningCalls, file: string, logger: Logger, intervalMs = RUNNING_FILE_INTERVAL_MS): Disposable {
  let timer: NodeJS.Timeout | undefined;
  let lastWrite = -Infinity;
  let writing = Promise.resolve();
  let disposed = false;
  const write = (): void => {
    timer = undefined;
    lastWrite = performance.now();
    const content: RunningFile = { pid: process.pid, calls: running.list() };
    writing = writing
      .then(() => writeAtomically(file, content))
      .catch((error: unknown) => logger.warn(`[running] could not write ${file}: ${String(error)}`));
  };
  const schedule = (): void => {
    if (disposed || timer !== undefined) {
      return;
    }
    timer = setTimeout(write, Math.max(0, lastWrite + intervalMs - performance.now()));
  };
  const cancelFile = cancelFileOf(file);
  const applyCancels = (): void => {
    for (const id of readCancelRequests(cancelFile)) {
      if (running.cancel(id)) {
        logger.info(`[running] cancelled ${id} as the editor asked`);
      }
    }
  };
  const listening = running.onDidChange(schedule);
  const watching = watchForChanges({ targets: [cancelFile], debounceMs: CANCEL_DEBOUNCE_MS, logger, onChange: applyCancels });
  schedule();
  return {
    dispose: () => {
      disposed = true;
      clearTimeout(timer);
      listening.dispose();
      watching.dispose();
      // Synchronous: the process may exit right after. Only our own list: a server started in our
      // place (VS Code restarting it) may have written the file already.
      try {
        if (readPid(file) !== process.pid) {
          return;
        }
        writeFileReplacingSync(file, `${JSON.stringify({ pid: process.pid, calls: [] } satisfies RunningFile)}\n`);
      } catch (error) {
        logger.debug(`[running] could not clear ${file}: ${String(error)}`);
      }
    },
  };
}

/** The calls `file` lists, none when it is missing, broken, or its server is gone. */
export function readRunningFile(file: string, alive: (pid: number) => boolean = processAlive): readonly RunningCall[] {
  const { pid, calls } = readJsonObject(file) ?? {};
  if (typeof pid !== 'number' || !Array.isArray(calls) || !alive(pid)) {
    return [];
  }
  return calls.flatMap((entry: unknown): RunningCall[] => {
    const call = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    if (typeof call['id'] !== 'string' || typeof call['tool'] !== 'string' || typeof call['startedAt'] !== 'number' || !isRunningDoor(call['door'])) {
      return [];
    }
    return [
      {
        id: call['id'],
        tool: call['tool'],
        door: call['door'],
        startedAt: call['startedAt'],
        ...(typeof call['caller'] === 'string' ? { caller: call['caller'] } : {}),
        ...(typeof call['latest'] === 'string' ? { latest: call['latest'] } : {}),
      },
    ];
  });
}

/** Asks the server publishing to `file` to cancel the call `id` (kept beside the other requests for calls it still lists). */
export async function requestCancel(file: string, id: string): Promise<void> {
  const listed = new Set(readRunningFile(file, () => true).map((call) => call.id));
  const cancelFile = cancelFileOf(file);
  const pending = readCancelRequests(cancelFile).filter((other) => listed.has(other) && other !== id);
  await writeAtomically(cancelFile, { cancel: [...pending, id] });
}

/** The pid the running file names, undefined when it is missing or broken. */
function readPid(file: string): number | undefined {
  const pid = readJsonObject(file)?.['pid'];
  return typeof pid === 'number' ? pid : undefined;
}

/** The ids the cancel file lists; none when it is missing or broken. */
function readCancelRequests(file: string): readonly string[] {
  const cancel = readJsonObject(file)?.['cancel'];
  return Array.isArray(cancel) ? cancel.filter((id): id is string => typeof id === 'string') : [];
}

/** The JSON object `file` holds; undefined when it is missing, unreadable, not JSON, or no object. */
function readJsonObject(file: string): Readonly<Record<string, unknown>> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

async function writeAtomically(file: string, content: unknown): Promise<void> {
  await writeFileReplacing(file, `${JSON.stringify(content)}\n`);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it lives, as another user's process.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Watches `file` and calls `onChange` with what it lists after each change. */
export function watchRunningFile(file: string, logger: Logger, onChange: (calls: readonly RunningCall[]) => void): Disposable {
  return watchForChanges({ targets: [file], debounceMs: CANCEL_DEBOUNCE_MS, logger, onChange: () => onChange(readRunningFile(file)) });
}
