/**
 * tasks.json tasks of `"type": "npm"` (VS Code's own npm task provider: `{ "type": "npm",
 * "script": "watch", "path": "sub/folder" }`), run as the npm-scripts importer runs a script
 * (package-scripts.ts: the same package manager, the same program, the same files approved),
 * in the folder of the package.json they name. They take no values: what runs is the approved
 * package.json's script. An npm task without a label is named as VS Code names it,
 * `npm: <script>` or `npm: <script> - <path>`, so other tasks' `dependsOn` can name it; a
 * `dependsOn` may also name a script no task declares, as VS Code's npm provider offers each one
 * (readNpmTasks): it runs as a step of the task that depends on it.
 */
import type { ImportOptions } from './import-options';
import type { ImportSource } from './imported-tool';
import { readPackageScripts, scriptBody, scriptRun, type NoPackage, type PackageScripts } from './package-scripts';
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

/** The packages npm tasks name, and the npm tasks VS Code provides that `dependsOn` names but tasks.json does not declare. */
export interface NpmTasks {
  readonly packages: NpmPackages;
  readonly provided: ReadonlyMap<string, DeclaredTask>;
}

/**
 * Reads the package.json of each folder the npm tasks name, declared (`"type": "npm"`) or only
 * depended on: VS Code's npm provider offers every script as a task, so `dependsOn: ["npm: build"]`
 * (or `{ "type": "npm", "script": "build" }`) runs the script even when tasks.json declares no such task.
 */
export async function readNpmTasks(tasks: readonly DeclaredTask[], labelOf: (task: DeclaredTask) => string | undefined, options: ImportOptions): Promise<NpmTasks> {
  const packages = new Map<string, PackageScripts | NoPackage>();
  const read = async (dir: string): Promise<PackageScripts | NoPackage> => {
    const known = packages.get(dir) ?? (await readPackageScripts(options, dir));
    packages.set(dir, known);
    return known;
  };
  const declared = new Set(tasks.map(labelOf));
  const provided = new Map<string, DeclaredTask>();
  for (const task of tasks) {
    const dir = isNpmTask(task.value) ? npmTaskDir(task.value) : undefined;
    if (dir !== undefined && 'dir' in dir) {
      await read(dir.dir);
    }
    for (const dependency of dependsOnList(task.value['dependsOn'])) {
      const value = typeof dependency === 'string' ? await providedByLabel(dependency, read) : isObject(dependency) && isNpmTask(dependency) ? dependency : undefined;
      const label = value === undefined ? undefined : typeof dependency === 'string' ? dependency : npmTaskLabel(value);
      if (value !== undefined && label !== undefined && !declared.has(label) && !provided.has(label)) {
        const valueDir = npmTaskDir(value);
        await read('dir' in valueDir ? valueDir.dir : '');
        provided.set(label, { value: { type: 'npm', script: value['script'], ...(value['path'] === undefined ? {} : { path: value['path'] }) }, line: task.line, column: task.column });
      }
    }
  }
  return { packages, provided };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function dependsOnList(value: unknown): readonly unknown[] {
  return value === undefined ? [] : Array.isArray(value) ? (value as unknown[]) : [value];
}

/**
 * The npm task a label `npm: <script>` or `npm: <script> - <path>` stands for: a script may have
 * " - " in its name too, so the first reading whose package.json declares the script is it (the
 * whole rest a script of the folder's package.json, else split at each " - ").
 */
async function providedByLabel(label: string, read: (dir: string) => Promise<PackageScripts | NoPackage>): Promise<JsonObject | undefined> {
  if (!label.startsWith('npm: ')) {
    return undefined;
  }
  const rest = label.slice('npm: '.length);
  const readings: JsonObject[] = [{ type: 'npm', script: rest }];
  for (let at = rest.indexOf(' - '); at > 0; at = rest.indexOf(' - ', at + 1)) {
    readings.push({ type: 'npm', script: rest.slice(0, at), path: rest.slice(at + 3) });
  }
  for (const reading of readings) {
    const dir = npmTaskDir(reading);
    const pkg = 'dir' in dir ? await read(dir.dir) : undefined;
    if (pkg !== undefined && 'scripts' in pkg && Object.hasOwn(pkg.scripts, String(reading['script']))) {
      return reading;
    }
  }
  return readings[0];
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
    body: scriptBody(pkg, script),
  };
}
