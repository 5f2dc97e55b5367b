/**
 * How long the server takes to answer a `ping` while something runs: the measure of "the server
 * keeps answering" (issue 33: within 100 ms on a quiet machine). Pings go one after another,
 * 20 ms apart, from before the work starts until it settles.
 */
import type { ConnectedServer } from './mcp-client';

/** The worst ping (ms) while `work` runs, and how many pings were sent. */
export async function worstPingDuring(server: ConnectedServer, work: Promise<unknown>): Promise<{ worst: number; pings: number }> {
  let settled = false;
  const done = work.finally(() => {
    settled = true;
  });
  let worst = 0;
  let pings = 0;
  do {
    const started = performance.now();
    await server.client.ping();
    worst = Math.max(worst, performance.now() - started);
    pings += 1;
    await new Promise((resolve) => setTimeout(resolve, 20));
  } while (!settled);
  await done;
  return { worst, pings };
}

/**
 * The most a ping may take in a test: `floor` ms, or three times the worst ping to the idle
 * server measured just before, when a busy machine (a shared 2-core CI runner) is slower than
 * that already. A stall the test guards against lasts seconds, far beyond either.
 */
export async function pingBudget(server: ConnectedServer, floor: number): Promise<number> {
  const idle = await worstPingDuring(server, new Promise((resolve) => setTimeout(resolve, 500)));
  return Math.max(floor, 3 * idle.worst);
}

/** Resolves when `condition` holds (checked every 20 ms), rejects after `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) {
      throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
