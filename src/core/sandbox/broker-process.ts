/**
 * One sandbox broker as the engine sees it: started in the background for a folder and a kind of
 * network session (sandbox-broker.ts), asked to wrap commands, told when they are done. It is
 * told to stop (SIGTERM) when this process exits, and stops by itself when this process goes
 * without exiting cleanly (its IPC channel closes); either way it waits for a start in progress,
 * resets the runtime and kills its own process group, so neither it nor the bridges the runtime
 * starts under it outlive the engine. It never keeps this process alive while nothing waits on it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { BrokerMessage, BrokerOptions, BrokerPolicy } from './broker-protocol';

/** The broker script: dist/sandbox-broker.mjs beside the bundle, the compiled file in tests. */
export function defaultBrokerPath(): string {
  const bundled = path.join(__dirname, 'sandbox-broker.mjs');
  return existsSync(bundled) ? bundled : path.join(__dirname, 'sandbox-broker.js');
}

/** How long a broker may take to start its session and run its probe. */
const START_TIMEOUT_MS = 60_000;

export interface BrokerStart {
  readonly folder: string;
  readonly options: BrokerOptions;
  /** The Node that runs it (this process's: node, or Electron run as node). */
  readonly execPath: string;
  readonly brokerPath: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where its stderr goes (the runtime's own warnings). */
  readonly log: (line: string) => void;
}

type Pending = { resolve: (message: Extract<BrokerMessage, { kind: 'reply' }>) => void; reject: (error: Error) => void };

/** Every broker this process started, told to stop when it exits. */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function stopOnExit(child: ChildProcess): void {
  live.add(child);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const broker of live) {
        askToStop(broker);
      }
    });
  }
}

/**
 * SIGTERM to the broker alone: it ends its process group itself, once a start in progress is
 * over (a signal to the whole group would end the probe's sandbox half-way, leaving its inner
 * processes to init, and a bridge the runtime starts just after it).
 */
function askToStop(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  try {
    child.kill('SIGTERM');
  } catch {
    // already gone
  }
}

export class BrokerProcess {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stderrTail = '';
  private exited: string | undefined;
  /** Resolves to undefined once the broker is ready, or to why it cannot sandbox. */
  readonly started: Promise<string | undefined>;

  constructor(start: BrokerStart) {
    this.child = spawn(start.execPath, [start.brokerPath, JSON.stringify(start.options)], {
      cwd: start.folder,
      env: { ...start.env, ELECTRON_RUN_AS_NODE: '1' },
      // Its own process group (POSIX), so killing the group takes the bridges with it.
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      windowsHide: true,
    });
    stopOnExit(this.child);
    this.child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      this.stderrTail = `${this.stderrTail}${text}`.slice(-2000);
      for (const line of text.split('\n').filter((entry) => entry.trim() !== '')) {
        start.log(line);
      }
    });
    this.started = new Promise((resolve) => {
      const timer = setTimeout(() => {
        resolve(`the sandbox broker did not start within ${START_TIMEOUT_MS / 1000} s`);
        this.stop();
      }, START_TIMEOUT_MS);
      timer.unref();
      this.child.on('message', (message: BrokerMessage) => {
        if (message.kind === 'ready' || message.kind === 'unavailable') {
          clearTimeout(timer);
          this.idle();
          resolve(message.kind === 'ready' ? undefined : message.reason);
          return;
        }
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        this.idle();
        waiting?.resolve(message);
      });
      this.child.on('error', (error) => {
        clearTimeout(timer);
        this.exited = `the sandbox broker could not start: ${error.message}`;
        resolve(this.exited);
      });
      this.child.on('exit', (code, signal) => {
        clearTimeout(timer);
        live.delete(this.child);
        this.exited ??= `the sandbox broker exited (${signal ?? `code ${code ?? '?'}`})${this.stderrTail.trim() === '' ? '' : `: ${lastLine(this.stderrTail)}`}`;
        resolve(this.exited);
        for (const waiting of this.pending.values()) {
          waiting.reject(new Error(this.exited));
        }
        this.pending.clear();
      });
    });
  }

  /** Whether it has neither failed nor exited (a dead broker is replaced by the next call). */
  get alive(): boolean {
    return this.exited === undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The command line that runs `command` under `policy` (in this broker's folder). */
  async wrap(command: string, commandId: string, policy: BrokerPolicy): Promise<string> {
    const reply = await this.request({ kind: 'wrap', command, commandId, policy });
    if (reply.wrapped === undefined) {
      throw new Error(`the sandbox could not wrap the command: ${reply.error ?? 'no answer'}`);
    }
    return reply.wrapped;
  }

  /** The command has ended: lets the runtime clean up; what it refused on the network. */
  async done(commandId: string): Promise<readonly string[]> {
    const reply = await this.request({ kind: 'done', commandId });
    return reply.violations ?? [];
  }

  /** Stops the broker (it resets the runtime, then ends its process group). */
  stop(): void {
    askToStop(this.child);
  }

  private request(body: { kind: 'wrap'; command: string; commandId: string; policy: BrokerPolicy } | { kind: 'done'; commandId: string }): Promise<Extract<BrokerMessage, { kind: 'reply' }>> {
    if (this.exited !== undefined || !this.child.connected) {
      return Promise.reject(new Error(this.exited ?? 'the sandbox broker is not running'));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.busy();
      this.child.send({ ...body, id }, (error) => {
        if (error !== null) {
          this.pending.delete(id);
          this.idle();
          reject(error);
        }
      });
    });
  }

  /** While an answer is awaited, the channel keeps this process alive; otherwise it must not. */
  private busy(): void {
    this.child.channel?.ref();
    this.child.ref();
  }

  private idle(): void {
    if (this.pending.size === 0) {
      this.child.channel?.unref();
      this.child.unref();
      // The stderr pipe is a handle of its own.
      (this.child.stderr as (NodeJS.ReadableStream & { unref?: () => void }) | null)?.unref?.();
    }
  }
}

function lastLine(text: string): string {
  return (
    text
      .trim()
      .split('\n')
      .filter((line) => line.trim() !== '')
      .at(-1) ?? ''
  );
}
