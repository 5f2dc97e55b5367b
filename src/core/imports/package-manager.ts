/**
 * The package manager that runs a workspace's scripts: the `packageManager` field of package.json
 * (Corepack's `name@version`), else the lock file beside it, else npm. What follows the script
 * name differs: npm takes the script's arguments after `--`; pnpm, yarn and bun pass on every
 * argument after the script name (pnpm would pass a `--` on to the script).
 */
import { lstat } from 'node:fs/promises';
import * as path from 'node:path';

/** The package managers whose `run` this knows. */
export type PackageManagerName = 'npm' | 'pnpm' | 'yarn' | 'bun';

/** The manager, and what decided it (for the description and for approval). */
export interface PackageManager {
  readonly name: PackageManagerName;
  /** `packageManager field`, or the lock file's name, or `default`. */
  readonly decidedBy: string;
  /** The lock file that decided, when one did (its presence is part of what runs). */
  readonly lockFile?: string;
}

/** Lock files in the order they are looked for. */
export const LOCK_FILES: ReadonlyArray<readonly [string, PackageManagerName]> = [
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
];

function managerNamed(name: string): PackageManagerName | undefined {
  return name === 'npm' || name === 'pnpm' || name === 'yarn' || name === 'bun' ? name : undefined;
}

/** The package manager of the folder whose package.json has `packageManagerField`. */
export async function packageManagerOf(folder: string, packageManagerField: unknown): Promise<PackageManager> {
  if (typeof packageManagerField === 'string') {
    const named = managerNamed(packageManagerField.split('@')[0] ?? '');
    if (named !== undefined) {
      return { name: named, decidedBy: 'the packageManager field' };
    }
  }
  for (const [file, name] of LOCK_FILES) {
    if (await exists(path.join(folder, file))) {
      return { name, decidedBy: file, lockFile: file };
    }
  }
  return { name: 'npm', decidedBy: 'default (no packageManager field, no lock file)' };
}

/**
 * The argv that runs `script` with the manager, started by `program` (its name, or on Windows
 * node and the entry of its batch shim: manager-program.ts); `{{args}}` is where the extra
 * arguments go, when the tool takes them (a tasks.json npm task takes none).
 */
export function runScriptArgv(manager: PackageManagerName, script: string, program: readonly string[] = [manager], withArgs = true): string[] {
  if (!withArgs) {
    return [...program, 'run', script];
  }
  return manager === 'npm' ? [...program, 'run', script, '--', '{{args}}'] : [...program, 'run', script, '{{args}}'];
}

async function exists(file: string): Promise<boolean> {
  return lstat(file).then(
    () => true,
    () => false,
  );
}
