/**
 * tasks.json tasks of `"type": "npm"` (VS Code's own npm task provider: `{ "type": "npm",
 * "script": "watch", "path": "sub/folder" }`), run as the npm-scripts importer runs a script
 * (package-scripts.ts: the same package manager, the same program, the same files approved),
 * in the folder of the package.json they name. They take no values: what runs is the approved
 * package.json's script. An npm task without a label is named as VS Code names it,
 * `npm: <script>` or `npm: <script> - <path>`, so other tasks' `dependsOn` can name it.
 */
import type { ImportOptions } from './import-options';
import type { ImportSource } from './imported-tool';
import { readPackageScripts, scriptRun, type NoPackage, type PackageScripts } from './package-scripts';
import type { TaskCommand } from './task-command';
import type { DeclaredTask } from './tasks-file';

type Reason = { readonly reason: string };
type JsonObject = Readonly<Record<string, unknown>>;

/** The package.json files npm tasks name, read, by folder (`''`, `a/b/`). */
export type NpmPackages = ReadonlyMap<string, PackageScripts | NoPackage>;

export function isNpmTask(value: JsonObject): boolean {
  return value['type'] === 'npm';
}

/** The folder of an npm task's package.json (`''` or `a/b/`), or why it is not one in the workspace. */
export function npmTaskDir(value: JsonObject): { readonly dir: string } | Reason {
  const written = value['path'] ?? '';
  if (typeof written !== 'string') {
    return { reason: 'its "path" is not a string' };
  }
  if (written.includes('${')) {
    return { reason: `its path ${JSON.stringify(written)} contains a variable; an npm task's path is read as written` };
  }
  const parts = written.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
  if (/^([\\/]|[a-zA-Z]:)/.test(written) || parts.includes('..')) {
    return { reason: `its path ${JSON.stringify(written)} is not a folder inside the workspace folder` };
  }
  return { dir: parts.map((part) => `${part}/`).join('') };
}

/** The label VS Code gives an npm task that declares none: `npm: <script>`, with ` - <path>` for a package in a folder. */
export function npmTaskLabel(value: JsonObject): string | undefined {
  const script = value['script'];
  const dir = npmTaskDir(value);
  if (typeof script !== 'string' || script === '' || 'reason' in dir) {
    return undefined;
  }
  return dir.dir === '' ? `npm: ${script}` : `npm: ${script} - ${dir.dir.slice(0, -1)}`;
}

/** Reads the package.json of each folder the npm tasks name. */
export async function readNpmPackages(tasks: readonly DeclaredTask[], options: ImportOptions): Promise<NpmPackages> {
  const packages = new Map<string, PackageScripts | NoPackage>();
  for (const task of tasks) {
    const dir = isNpmTask(task.value) ? npmTaskDir(task.value) : undefined;
    if (dir !== undefined && 'dir' in dir && !packages.has(dir.dir)) {
      packages.set(dir.dir, await readPackageScripts(options, dir.dir));
    }
  }
  return packages;
}

/** Every file the npm tasks' packages are run by (approval covers them with tasks.json). */
export function npmSources(packages: NpmPackages): ImportSource[] {
  return [...packages.values()].flatMap((pkg) => pkg.sources);
}

/** What an npm task runs, or why it cannot be served. */
export function npmTaskCommand(value: JsonObject, packages: NpmPackages, options: ImportOptions): TaskCommand | Reason {
  const script = value['script'];
  if (typeof script !== 'string' || script === '') {
    return { reason: 'it is an npm task without a "script" to run' };
  }
  const dir = npmTaskDir(value);
  if ('reason' in dir) {
    return dir;
  }
  const pkg = packages.get(dir.dir);
  const file = `${dir.dir}package.json`;
  if (pkg === undefined || 'absent' in pkg) {
    return { reason: `it runs the script "${script}" of ${file}, which does not exist` };
  }
  if ('problem' in pkg) {
    return { reason: `it runs the script "${script}" of ${file}: ${pkg.problem}` };
  }
  if (!Object.hasOwn(pkg.scripts, script)) {
    return { reason: `it runs the script "${script}" of ${file}, which declares no such script` };
  }
  const run = scriptRun(pkg, script, options, false);
  if ('reason' in run) {
    return { reason: `it runs the script "${script}" of ${file}, and ${run.reason}` };
  }
  const cwd = dir.dir === '' ? undefined : dir.dir.slice(0, -1);
  const common = cwd === undefined ? {} : { cwd };
  return {
    handler: { type: 'shell', command: run.argv, ...common },
    run: { kind: 'process', argv: run.argv, ...common },
    inputs: [],
    programFiles: run.programFiles,
    ...(pkg.config.notCovered.length === 0 ? {} : { notCovered: pkg.config.notCovered }),
  };
}
