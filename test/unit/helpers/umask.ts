/**
 * Runs `run` with the process umask set to `mask`, and puts the one before back after. A test of
 * a file's mode runs under 022: under a umask of 077 (some CI images) every new file is 0600
 * whatever mode was asked for, and the test would pass with the mode lost.
 */
export async function withUmask<T>(mask: number, run: () => Promise<T>): Promise<T> {
  const previous = process.umask(mask);
  try {
    return await run();
  } finally {
    process.umask(previous);
  }
}
