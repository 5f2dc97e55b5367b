/**
 * CPU time a process has used, read from /proc: on a loaded 2-core machine wall time hides work
 * done after an answer is sent (and swings with the load), CPU time does neither.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat (sysconf(_SC_CLK_TCK), 100 on Linux). */
const CLOCK_TICKS = 100;

/**
 * Milliseconds of CPU every thread of `pid` has run so far (its own threads: the main thread,
 * libuv's pool, V8's helpers). Nanosecond precision from /proc/<pid>/task/<tid>/schedstat; the
 * 10 ms ticks of /proc/<pid>/stat where schedstat is missing; undefined off Linux or once the
 * process is gone.
 * @param {number | null | undefined} pid
 * @returns {number | undefined}
 */
export function processCpuMs(pid) {
  if (pid === null || pid === undefined) {
    return undefined;
  }
  const byThread = threadCpuMs(pid);
  return byThread === undefined ? ticksCpuMs(pid) : Object.values(byThread).reduce((sum, ms) => sum + ms, 0);
}

/**
 * Milliseconds of CPU each kind of thread of `pid` has run so far, from
 * /proc/<pid>/task/<tid>/schedstat: `main`, and the others by name (`node`: V8's helpers,
 * `libuv-worker`: the thread pool); undefined where schedstat is missing (not Linux, gone).
 * @param {number} pid
 * @returns {Record<string, number> | undefined}
 */
export function threadCpuMs(pid) {
  try {
    const byKind = {};
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const kind = tid === String(pid) ? 'main' : readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      byKind[kind] = (byKind[kind] ?? 0) + Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
    }
    return byKind;
  } catch {
    return undefined;
  }
}

/** utime + stime of /proc/<pid>/stat, in milliseconds (10 ms steps). */
function ticksCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may hold spaces: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1000;
  } catch {
    return undefined;
  }
}
