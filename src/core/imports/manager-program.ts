/**
 * The program that runs the package manager. Elsewhere, and for an .exe on Windows (bun.exe, a
 * standalone pnpm.exe), its name: spawn finds it when the tool runs, as for any program. On
 * Windows npm, pnpm and yarn are usually batch shims (npm.cmd ...), which cannot take the
 * script's arguments safely (CVE-2024-27980), and every script tool passes its `args`: there
 * the program the shim starts runs instead, node with the package's own entry
 * (platform/batch-shim.ts), so each value stays one argument and cmd.exe is not involved.
 */
import type { ShimLookupDeps } from '../platform/batch-shim';
import { shimTarget } from '../platform/batch-shim';
import { resolveProgram } from '../platform/program-lookup';
import type { PackageManagerName } from './package-manager';

/** The words that start the manager, and the shim they stand for; or why it cannot run here. */
export type ManagerProgram =
  | { readonly argv: readonly string[]; readonly shim?: string }
  | { readonly refusal: string };

/** How `manager` runs on `deps.platform`, looked up in `deps.env`'s PATH. */
export function managerProgram(manager: PackageManagerName, deps: ShimLookupDeps): ManagerProgram {
  if (!deps.platform.windows) {
    return { argv: [manager] };
  }
  const found = resolveProgram(manager, deps);
  if (found.kind !== 'batch') {
    // An .exe runs as it is; a manager not on PATH (or not a program) is refused when the tool
    // runs, as any program is, so installing it later needs no reload of the import.
    return { argv: [manager] };
  }
  const target = shimTarget(found.file, deps);
  switch (target.kind) {
    case 'node':
      return { argv: [target.node, target.entry], shim: found.file };
    case 'executable':
      return { argv: [target.file], shim: found.file };
    case 'unknown':
      return {
        refusal:
          `${manager} is the batch file ${found.file}, which cannot take the script's arguments safely (CVE-2024-27980), ` +
          `and what it starts could not be found to run instead: ${target.reason}`,
      };
  }
}
