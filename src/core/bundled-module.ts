/**
 * Modules the bundles keep in files of their own beside them (esbuild.mjs), so that start-up does
 * not parse them: code that only some sessions need (the plugin file validator, the linear-time
 * regular expression engine). Every module of a bundle shares its `__dirname` (dist/).
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';

/**
 * `file` from beside the bundle when running from it; else `fromSources()` (tests and tools run
 * from the compiled sources, where the package or module itself is loaded).
 */
export function requireBundled<T>(file: string, fromSources: () => T): T {
  const bundled = path.join(__dirname, file);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return existsSync(bundled) ? (require(bundled) as T) : fromSources();
}
