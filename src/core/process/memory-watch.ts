/**
 * A cap on a process's resident memory, checked by polling. V8's heap cap
 * (--max-old-space-size) bounds JavaScript objects only: Buffers and ArrayBuffers live outside
 * the heap, so a program filling buffers would grow until the machine runs out. How the memory
 * is read, and where it cannot be (Windows), is the platform's (platform/resident-memory.ts).
 */
import type { ResidentMemoryProbe } from '../platform/resident-memory';
import { residentMemoryProbe } from '../platform/resident-memory';
import { hostPlatform } from '../platform/platform';

/**
 * Calls `onExceeded` (once) with the resident memory in MB when `pid` passes `capMb`.
 * Returns the function that stops watching. Where the platform has no probe it watches nothing.
 */
export function watchResidentMemory(
  pid: number,
  capMb: number,
  onExceeded: (residentMb: number) => void,
  probe: ResidentMemoryProbe | undefined = residentMemoryProbe(hostPlatform()),
): () => void {
  if (probe === undefined) {
    return () => undefined;
  }
  let reading = false;
  let stopped = false;
  const timer = setInterval(() => {
    if (reading) {
      return;
    }
    reading = true;
    void probe
      .read(pid)
      .then((resident) => {
        if (!stopped && resident !== undefined && resident > capMb) {
          stop();
          onExceeded(resident);
        }
      })
      .finally(() => {
        reading = false;
      });
  }, probe.intervalMs);
  timer.unref();
  function stop(): void {
    stopped = true;
    clearInterval(timer);
  }
  return stop;
}
