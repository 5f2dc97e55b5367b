/**
 * The tasks of one client: calls that run in the background while the client polls (MCP tasks,
 * issue 39). A door starts the work itself and tells the store where it stands; the store keeps
 * each task's status, latest status message, question and final outcome, cancels its work, drops
 * it once its time to live is over, and refuses a task past the client's cap. What a result or an
 * error is stays the door's (`R`, `E`): the store only keeps it.
 *
 * Times: a task's TTL counts from its creation, as MCP says; a task that is still running when its
 * TTL is over is kept (dropping it would lose a build's result while it runs), and a finished one
 * is kept at least `min(ttl, MIN_KEEP_AFTER_END_MS)` after it ended, so a result that arrives late
 * can still be fetched. The TTL a door shows is the one in force (`ttlMs`).
 */
import { randomUUID } from 'node:crypto';
import type { ElicitAnswer, ElicitRequest } from '../types';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A question the task's work waits on; `key` is new for each question of a task. */
export interface TaskQuestion {
  readonly key: string;
  readonly request: ElicitRequest;
}

/** One task as a door shows it. */
export interface TaskSnapshot<R, E> {
  readonly id: string;
  readonly tool: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  /** How long after `createdAt` the task may be dropped (it is never dropped while it runs). */
  readonly ttlMs: number;
  readonly result?: R;
  readonly error?: E;
  readonly question?: TaskQuestion;
}

/** How the work ended: a result (a tool's error result too), or a protocol error. */
export type TaskOutcome<R, E> = { readonly result: R; readonly failed?: boolean; readonly statusMessage?: string } | { readonly error: E; readonly statusMessage: string };

export interface TaskStoreOptions {
  /** Most tasks one client may have working or waiting at a question at once. */
  readonly maxActive: number;
  /** The TTL of a task whose client asks for none. */
  readonly defaultTtlMs: number;
  /** The longest TTL a client may ask for. */
  readonly maxTtlMs: number;
  /**
   * Most tasks held at once, finished ones included (default MAX_KEPT_TASKS): past it the oldest
   * finished task is dropped before its TTL, so many short tasks cannot hold their results for an hour.
   */
  readonly maxKept?: number;
  readonly now?: () => number;
}

/** A task past the client's cap: nothing was started. */
export class TaskLimitError extends Error {}

/** Tasks of one client currently held, by id. */
export const DEFAULT_MAX_ACTIVE_TASKS = 16;
export const DEFAULT_TASK_TTL_MS = 60 * 60 * 1000;
export const MAX_TASK_TTL_MS = 24 * 60 * 60 * 1000;
/** Most tasks of one client held at once, finished ones included. */
export const MAX_KEPT_TASKS = 256;
/** A finished task is kept at least this long after it ended (or its whole TTL, when shorter). */
export const MIN_KEEP_AFTER_END_MS = 60 * 1000;
/** How many dropped task ids are remembered, to say "expired" rather than "not found". */
const REMEMBERED_EXPIRED = 1000;

interface Entry<R, E> {
  snapshot: TaskSnapshot<R, E>;
  readonly controller: AbortController;
  readonly ended: Promise<void>;
  end: () => void;
  timer?: NodeJS.Timeout;
  /** Resolves the question the work waits on (a door's answer). */
  answer?: (answer: ElicitAnswer) => void;
  questions: number;
}

export class TaskStore<R, E> {
  private readonly tasks = new Map<string, Entry<R, E>>();
  private readonly expired = new Set<string>();
  private readonly listeners = new Set<(task: TaskSnapshot<R, E>) => void>();
  private readonly now: () => number;
  private disposed = false;

  constructor(private readonly options: TaskStoreOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * A new working task of `tool`, its TTL the one asked for within the store's bounds. Throws
   * TaskLimitError when the client already has `maxActive` tasks working or waiting.
   */
  create(tool: string, requestedTtlMs?: number): TaskSnapshot<R, E> {
    const active = [...this.tasks.values()].filter((entry) => !isTerminal(entry.snapshot.status)).length;
    if (active >= this.options.maxActive) {
      throw new TaskLimitError(`${active} tasks of this client are running, the most one client may have at once (${this.options.maxActive}); wait for one to finish, or cancel one with tasks/cancel, then call again`);
    }
    const now = this.now();
    const ttlMs = Math.min(Math.max(Math.floor(requestedTtlMs ?? this.options.defaultTtlMs), 0), this.options.maxTtlMs);
    let end = (): void => undefined;
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    const entry: Entry<R, E> = {
      snapshot: { id: randomUUID(), tool, status: 'working', createdAt: now, lastUpdatedAt: now, ttlMs },
      controller: new AbortController(),
      ended,
      end,
      questions: 0,
    };
    if (this.disposed) {
      entry.controller.abort();
    }
    this.dropOldestFinished(this.options.maxKept ?? MAX_KEPT_TASKS);
    this.tasks.set(entry.snapshot.id, entry);
    this.schedule(entry);
    this.changed(entry);
    return entry.snapshot;
  }

  /** The task, `expired` when it was dropped, undefined when there never was one. */
  get(id: string): TaskSnapshot<R, E> | 'expired' | undefined {
    return this.tasks.get(id)?.snapshot ?? (this.expired.has(id) ? 'expired' : undefined);
  }

  /** Every task held, oldest first. */
  list(): readonly TaskSnapshot<R, E>[] {
    return [...this.tasks.values()].map((entry) => entry.snapshot);
  }

  /** The signal that cancels the task's work (tasks/cancel, the server's shutdown). */
  signal(id: string): AbortSignal {
    return this.entry(id).controller.signal;
  }

  /** The work's latest sign of life, shown as the task's status message. */
  progress(id: string, message: string): void {
    const entry = this.tasks.get(id);
    if (entry !== undefined && entry.snapshot.status === 'working') {
      this.update(entry, { statusMessage: message });
    }
  }

  /**
   * The work waits on a question: the task is `input_required` with it until `answer` (or the
   * task ends). Resolves with the answer; a cancelled task's question is answered `cancel`.
   */
  ask(id: string, request: ElicitRequest): { readonly question: TaskQuestion; readonly answered: Promise<ElicitAnswer> } {
    const entry = this.entry(id);
    entry.questions += 1;
    const question: TaskQuestion = { key: `question-${entry.questions}`, request };
    const answered = new Promise<ElicitAnswer>((resolve) => {
      entry.answer = resolve;
    });
    if (!isTerminal(entry.snapshot.status)) {
      this.update(entry, { status: 'input_required', statusMessage: request.message, question });
    } else {
      this.settleQuestion(entry, { action: 'cancel' });
    }
    return { question, answered };
  }

  /**
   * Hands `answer` to the question `key` of the task; false when it waits on no such question
   * (answered already, never asked, the task is over), which MCP says to ignore.
   */
  answer(id: string, key: string, answer: ElicitAnswer): boolean {
    const entry = this.tasks.get(id);
    if (entry === undefined || entry.snapshot.question?.key !== key || entry.snapshot.status !== 'input_required') {
      return false;
    }
    this.update(entry, { status: 'working', statusMessage: undefined, question: undefined });
    this.settleQuestion(entry, answer);
    return true;
  }

  /** The work ended. Ignored for a task already over (a cancelled task stays cancelled). */
  finish(id: string, outcome: TaskOutcome<R, E>): void {
    const entry = this.tasks.get(id);
    if (entry === undefined || isTerminal(entry.snapshot.status)) {
      return;
    }
    if ('error' in outcome) {
      this.end(entry, { status: 'failed', statusMessage: outcome.statusMessage, error: outcome.error });
    } else {
      this.end(entry, { status: outcome.failed === true ? 'failed' : 'completed', statusMessage: outcome.statusMessage, result: outcome.result });
    }
  }

  /**
   * Cancels the task: its status is `cancelled` at once and its work is aborted (a process tree is
   * killed). `terminal` when it was over already, undefined when unknown.
   */
  cancel(id: string, reason = 'The task was cancelled by request.'): TaskSnapshot<R, E> | 'terminal' | undefined {
    const entry = this.tasks.get(id);
    if (entry === undefined) {
      return undefined;
    }
    if (isTerminal(entry.snapshot.status)) {
      return 'terminal';
    }
    this.end(entry, { status: 'cancelled', statusMessage: reason });
    return entry.snapshot;
  }

  /** Resolves once the task is over (at once when it is), with its final state. */
  async settled(id: string): Promise<TaskSnapshot<R, E>> {
    const entry = this.entry(id);
    await entry.ended;
    return entry.snapshot;
  }

  /** Called on every change of any task (status, message, question, end, drop: `dropped`). */
  onDidChange(listener: (task: TaskSnapshot<R, E>) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Cancels every task, and every one created from now on (the server is shutting down). */
  dispose(): void {
    this.disposed = true;
    for (const entry of this.tasks.values()) {
      if (!isTerminal(entry.snapshot.status)) {
        this.end(entry, { status: 'cancelled', statusMessage: 'The server shut down.' });
      }
      clearTimeout(entry.timer);
    }
  }

  private entry(id: string): Entry<R, E> {
    const entry = this.tasks.get(id);
    if (entry === undefined) {
      throw new Error(`No task ${id}`);
    }
    return entry;
  }

  private end(entry: Entry<R, E>, patch: Partial<Omit<TaskSnapshot<R, E>, 'id' | 'tool' | 'createdAt'>>): void {
    const now = this.now();
    const { createdAt, ttlMs } = entry.snapshot;
    // Kept a while after it ended, even when its TTL ran out while it ran.
    const keptUntil = Math.max(createdAt + ttlMs, now + Math.min(ttlMs, MIN_KEEP_AFTER_END_MS));
    this.update(entry, { ...patch, question: undefined, ttlMs: keptUntil - createdAt });
    entry.controller.abort();
    this.settleQuestion(entry, { action: 'cancel' });
    entry.end();
    this.schedule(entry);
  }

  private settleQuestion(entry: Entry<R, E>, answer: ElicitAnswer): void {
    const resolve = entry.answer;
    entry.answer = undefined;
    resolve?.(answer);
  }

  private update(entry: Entry<R, E>, patch: Partial<Omit<TaskSnapshot<R, E>, 'id' | 'tool' | 'createdAt'>>): void {
    const next: Record<string, unknown> = { ...entry.snapshot, ...patch, lastUpdatedAt: this.now() };
    for (const key of Object.keys(next)) {
      if (next[key] === undefined) {
        delete next[key];
      }
    }
    entry.snapshot = next as unknown as TaskSnapshot<R, E>;
    this.changed(entry);
  }

  /** Drops the task when its TTL is over, unless it still runs (then its end schedules again). */
  private schedule(entry: Entry<R, E>): void {
    clearTimeout(entry.timer);
    const wait = entry.snapshot.createdAt + entry.snapshot.ttlMs - this.now();
    entry.timer = setTimeout(() => {
      if (isTerminal(entry.snapshot.status)) {
        this.drop(entry);
      }
    }, Math.max(wait, 0));
    entry.timer.unref();
  }

  /** Drops the oldest finished tasks until fewer than `max` are held (room for one more). */
  private dropOldestFinished(max: number): void {
    for (const entry of this.tasks.values()) {
      if (this.tasks.size < max) {
        return;
      }
      if (isTerminal(entry.snapshot.status)) {
        clearTimeout(entry.timer);
        this.drop(entry);
      }
    }
  }

  private drop(entry: Entry<R, E>): void {
    const { id } = entry.snapshot;
    this.tasks.delete(id);
    this.expired.add(id);
    if (this.expired.size > REMEMBERED_EXPIRED) {
      const oldest = this.expired.values().next().value;
      if (oldest !== undefined) {
        this.expired.delete(oldest);
      }
    }
    this.changed(entry);
  }

  private changed(entry: Entry<R, E>): void {
    for (const listener of this.listeners) {
      listener(entry.snapshot);
    }
  }
}

export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
