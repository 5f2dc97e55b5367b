/**
 * The calls in progress in one process, as the VS Code tools view's "Running" rows show them:
 * which tool, who started it, since when, its latest output line, and how to cancel it. A door
 * adds a call when it starts and ends it when it is over (issue 39, item 3). The extension host
 * keeps one for its own calls (lm tools, Run Tool, the editor bridge); the MCP server keeps one
 * for its calls and tasks and publishes it to the window (running-file.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Disposable } from '../types';

/** Who started a call: chat's lm tools, Run Tool, an outside agent through the editor bridge, an MCP client (plain call or task). */
export type RunningDoor = 'lm' | 'run-tool' | 'bridge' | 'mcp' | 'mcp-task';

/** One call in progress. */
export interface RunningCall {
  /** Unique in its process (an MCP task's id for a task). */
  readonly id: string;
  readonly tool: string;
  readonly door: RunningDoor;
  /** Who called through the door, when it says (an outside agent's server through the bridge). */
  readonly caller?: string;
  /** Epoch milliseconds. */
  readonly startedAt: number;
  /** The call's latest sign of life (its latest output line, the step it is on). */
  readonly latest?: string;
}

/** What a door gives when a call starts. */
export interface RunningStart {
  readonly tool: string;
  readonly door: RunningDoor;
  readonly caller?: string;
  /** The id to list it under (an MCP task's); a fresh one when absent. */
  readonly id?: string;
  /** Cancels the call: aborts its work (the registry kills the process tree). */
  readonly cancel: () => void;
}

/** A call's handle for its door. */
export interface RunningHandle {
  readonly id: string;
  /** The call's latest output line or step. */
  report(message: string): void;
  /** The call is over: its row goes away. */
  end(): void;
}

/** The longest `latest` kept (a row shows one line). */
const LATEST_MAX_CHARS = 200;

export class RunningCalls {
  private readonly calls = new Map<string, { call: RunningCall; readonly cancel: () => void }>();
  private readonly listeners = new Set<(membership: boolean) => void>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Lists a call until its handle's `end`. */
  begin(start: RunningStart): RunningHandle {
    const id = start.id ?? randomUUID();
    const call: RunningCall = { id, tool: start.tool, door: start.door, startedAt: this.now(), ...(start.caller === undefined ? {} : { caller: start.caller }) };
    this.calls.set(id, { call, cancel: start.cancel });
    this.changed(true);
    return {
      id,
      report: (message) => {
        const entry = this.calls.get(id);
        const latest = oneLine(message);
        if (entry !== undefined && latest !== '' && latest !== entry.call.latest) {
          entry.call = { ...entry.call, latest };
          this.changed(false);
        }
      },
      end: () => {
        if (this.calls.delete(id)) {
          this.changed(true);
        }
      },
    };
  }

  /** Every call in progress, oldest first. */
  list(): readonly RunningCall[] {
    return [...this.calls.values()].map((entry) => entry.call);
  }

  /** Cancels the call `id`; false when no such call runs (it ended meanwhile). */
  cancel(id: string): boolean {
    const entry = this.calls.get(id);
    if (entry === undefined) {
      return false;
    }
    entry.cancel();
    return true;
  }

  /**
   * Called after every change: a call began or ended (`membership` true), or reported a new
   * latest line (false: the same calls run).
   */
  onDidChange(listener: (membership: boolean) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private changed(membership: boolean): void {
    for (const listener of this.listeners) {
      listener(membership);
    }
  }
}

/** The last non-empty line of `message`, trimmed and cut to LATEST_MAX_CHARS. */
function oneLine(message: string): string {
  const lines = message.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
  const line = lines[lines.length - 1] ?? '';
  return line.length > LATEST_MAX_CHARS ? `${line.slice(0, LATEST_MAX_CHARS - 1)}…` : line;
}

/** "12 s", "3 min 04 s", "1 h 02 min": how long a call has run. */
export function elapsedText(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) {
    return `${seconds} s`;
  }
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) {
    return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
  }
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** How a row names each door; its keys are every door there is (the running file checks against them). */
const DOOR_LABELS: Readonly<Record<RunningDoor, string>> = { lm: 'chat', 'run-tool': 'Run Tool', bridge: 'terminal agent', mcp: 'MCP call', 'mcp-task': 'MCP task' };

/** Whether `value` names a door (what another process wrote may not). */
export function isRunningDoor(value: unknown): value is RunningDoor {
  return typeof value === 'string' && Object.hasOwn(DOOR_LABELS, value);
}

/** How a row names who started a call. */
export function doorLabel(call: Pick<RunningCall, 'door' | 'caller'>): string {
  const label = DOOR_LABELS[call.door];
  return call.caller === undefined ? label : `${label} (${call.caller})`;
}

/** What a Running row of the tools view says: the tool; who started it, for how long, its latest line. */
export function runningRowText(call: RunningCall, now: number): { readonly label: string; readonly description: string; readonly tooltip: string } {
  const elapsed = elapsedText(now - call.startedAt);
  const who = doorLabel(call);
  return {
    label: call.tool,
    description: [who, elapsed, call.latest].filter((part) => part !== undefined && part !== '').join(' · '),
    tooltip: `${call.tool}: started by ${who} ${elapsed} ago${call.latest === undefined ? '' : `\nLatest: ${call.latest}`}\nCancel stops it and the programs it started.`,
  };
}
