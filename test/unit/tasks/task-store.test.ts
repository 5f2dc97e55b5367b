/**
 * The store of one client's tasks (core/tasks/task-store.ts, issue 39) on a clock the test moves:
 * statuses, the cap, questions, cancellation of the work, and the TTL that drops a finished task
 * but never a running one.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MIN_KEEP_AFTER_END_MS, TaskLimitError, TaskStore } from '../../../src/core/tasks/task-store';

function storeAt(options: { maxActive?: number; defaultTtlMs?: number } = {}): { store: TaskStore<string, { code: number; message: string }>; advance: (ms: number) => void } {
  let now = 1_000_000;
  const store = new TaskStore<string, { code: number; message: string }>({ maxActive: options.maxActive ?? 4, defaultTtlMs: options.defaultTtlMs ?? 60_000, maxTtlMs: 120_000, now: () => now });
  return { store, advance: (ms) => void (now += ms) };
}

const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('the task store', () => {
  test('a task is working, shows its latest message, then completed or failed with what it ended with', async () => {
    const { store } = storeAt();
    const task = store.create('build');
    assert.equal(task.status, 'working');
    assert.equal(task.ttlMs, 60_000);
    store.progress(task.id, 'compiling');
    assert.equal((store.get(task.id) as { statusMessage?: string }).statusMessage, 'compiling');
    store.finish(task.id, { result: 'done' });
    const done = await store.settled(task.id);
    assert.equal(done.status, 'completed');
    assert.equal(done.result, 'done');
    assert.equal(store.signal(task.id).aborted, true, 'its work is told to stop once it is over');
    const failed = store.create('deploy');
    store.finish(failed.id, { error: { code: -32602, message: 'Unknown tool' }, statusMessage: 'Unknown tool' });
    assert.equal((store.get(failed.id) as { status: string }).status, 'failed');
  });

  test('the TTL asked for is kept within bounds', () => {
    const { store } = storeAt();
    assert.equal(store.create('a', 500).ttlMs, 500);
    assert.equal(store.create('b', 10_000_000).ttlMs, 120_000);
    assert.equal(store.create('c', -5).ttlMs, 0);
  });

  test('past the cap a task is refused; a finished or cancelled one frees its place', () => {
    const { store } = storeAt({ maxActive: 2 });
    const first = store.create('a');
    store.create('b');
    assert.throws(() => store.create('c'), (error: unknown) => error instanceof TaskLimitError && /2 tasks of this client are running, the most one client may have at once \(2\)/.test(error.message));
    store.cancel(first.id);
    store.create('c');
  });

  test('cancel: cancelled at once, its work aborted, and it stays cancelled when the work ends anyway', () => {
    const { store } = storeAt();
    const task = store.create('sleep');
    const signal = store.signal(task.id);
    const cancelled = store.cancel(task.id);
    assert.equal(typeof cancelled === 'object' && cancelled.status, 'cancelled');
    assert.equal(signal.aborted, true);
    store.finish(task.id, { result: 'late' });
    assert.equal((store.get(task.id) as { status: string; result?: string }).status, 'cancelled');
    assert.equal(store.cancel(task.id), 'terminal');
    assert.equal(store.cancel('unknown'), undefined);
  });

  test('a question: input_required with it; only its own key answers it; a cancel answers it "cancel"', async () => {
    const { store } = storeAt();
    const task = store.create('deploy');
    const { question, answered } = store.ask(task.id, { message: 'Deploy?', requestedSchema: { type: 'object', properties: {} } });
    assert.equal((store.get(task.id) as { status: string }).status, 'input_required');
    assert.equal(store.answer(task.id, 'question-99', { action: 'accept' }), false, 'an unknown key is ignored');
    assert.equal(store.answer(task.id, question.key, { action: 'accept', content: { ok: true } }), true);
    assert.deepEqual(await answered, { action: 'accept', content: { ok: true } });
    assert.equal((store.get(task.id) as { status: string }).status, 'working');
    const second = store.ask(task.id, { message: 'Really?', requestedSchema: { type: 'object', properties: {} } });
    assert.notEqual(second.question.key, question.key, 'each question of a task has a key of its own');
    store.cancel(task.id);
    assert.deepEqual(await second.answered, { action: 'cancel' });
  });

  test('a finished task is dropped after its TTL and then "expired"; a running one is never dropped', async () => {
    const { store, advance } = storeAt({ defaultTtlMs: 20 });
    const finished = store.create('quick');
    const running = store.create('slow');
    store.finish(finished.id, { result: 'ok' });
    advance(30);
    await tick(60);
    assert.equal(store.get(finished.id), 'expired');
    assert.equal((store.get(running.id) as { status: string }).status, 'working', 'still running after its TTL');
    assert.equal(store.get('never'), undefined);
    // Ended long after its TTL: kept a while after its end, its TTL grown to say so.
    advance(10_000);
    store.finish(running.id, { result: 'late' });
    const ended = store.get(running.id) as { ttlMs: number };
    assert.equal(ended.ttlMs, 10_030 + Math.min(20, MIN_KEEP_AFTER_END_MS));
  });

  test('past the most tasks held, the oldest finished one is dropped first; running ones stay', () => {
    let now = 0;
    const store = new TaskStore<string, never>({ maxActive: 10, defaultTtlMs: 60_000, maxTtlMs: 60_000, maxKept: 3, now: () => now });
    const running = store.create('slow');
    const first = store.create('a');
    store.finish(first.id, { result: 'a' });
    const second = store.create('b');
    store.finish(second.id, { result: 'b' });
    now += 1;
    store.create('c');
    assert.equal(store.get(first.id), 'expired', 'the oldest finished task made room');
    assert.equal((store.get(second.id) as { status: string }).status, 'completed');
    assert.equal((store.get(running.id) as { status: string }).status, 'working');
  });

  test('dispose cancels every task, and every task created afterwards', () => {
    const { store } = storeAt();
    const task = store.create('a');
    store.dispose();
    assert.equal((store.get(task.id) as { status: string }).status, 'cancelled');
    const late = store.create('b');
    assert.equal(store.signal(late.id).aborted, true);
  });
});
