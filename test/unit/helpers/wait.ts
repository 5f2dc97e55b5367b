/** Polling for a condition that something outside the test (a watcher, another process) makes true. */

/** Resolves to true once `condition` holds (checked every 10 ms), or to false after `timeoutMs`. */
export async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      return false;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}
