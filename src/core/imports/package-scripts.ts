/**
 * A package's scripts and what runs them, shared by the npm-scripts importer (a tool per script)
 * and tasks.json's `npm` tasks (VS Code's npm task provider: a task per script): package.json
 * read from the folder or a folder in it, the workspace's package manager (package-manager.ts)
 * started as manager-program.ts says, and every file that decides what runs (package.json, the
 * lock files that pick the manager, the manager's configuration: manager-config.ts) as a source
 * approval covers.
 */
import * as path from 'node:path';
import { placeholderNames } from '../templates';
import type { ImportOptions } from './import-options';
import type { ImportSource } from './imported-tool';
import { readImportSource } from './import-source';
import { LOCK_FILES, packageManagerOf, runScriptArgv, type PackageManager } from './package-manager';
import { managerProgram, type ManagerProgram } from './manager-program';
import { managerConfig, type ManagerConfig } from './manager-config';
import { workspaceProgramFiles } from '../handlers/shell/program-words';
import { scriptValueProblem } from '../handlers/shell/nested-code';
import { redactSecrets } from '../redact';

export const PACKAGE_FILE = 'package.json';

/** A package.json that was read, with what runs its scripts. */
export interface PackageScripts {
  /** The package.json's path in the folder (`package.json`, `sub/package.json`). */
  readonly file: string;
  readonly text: string;
  readonly scripts: Readonly<Record<string, unknown>>;
  readonly manager: PackageManager;
  readonly program: ManagerProgram;
  readonly config: ManagerConfig;
  /** Every file that decides what its scripts run (approval covers each). */
  readonly sources: readonly ImportSource[];
}

/** Why a package.json gives no scripts, with the sources to approve all the same. */
export type NoPackage = { readonly absent: true; readonly sources: readonly ImportSource[] } | { readonly problem: string; readonly sources: readonly ImportSource[] };

/** Reads the package.json of `dir` ('' for the folder itself, else `a/b/`) and what runs its scripts. */
export async function readPackageScripts(options: ImportOptions, dir = ''): Promise<PackageScripts | NoPackage> {
  const file = `${dir}${PACKAGE_FILE}`;
  const read = await readImportSource(options.folder, file);
  if ('absent' in read) {
    return { absent: true, sources: [{ path: file, content: null }] };
  }
  if ('problem' in read) {
    return { problem: read.problem, sources: [] };
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(read.text);
  } catch (error) {
    return { problem: `${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`, sources: [{ path: file, content: read.text }] };
  }
  const fields = typeof manifest === 'object' && manifest !== null ? (manifest as Record<string, unknown>) : {};
  const cwd = path.join(options.folder.path, dir);
  const manager = await packageManagerOf(cwd, fields['packageManager']);
  const config = await managerConfig(options.folder, dir);
  const sources: ImportSource[] = [
    { path: file, content: read.text },
    // Which lock files exist decides the program: their presence is approved, not their churn.
    ...(fields['packageManager'] === undefined ? LOCK_FILES.map(([lock]) => ({ path: `${dir}${lock}`, content: lock === manager.lockFile ? '' : null, presenceOnly: true })) : []),
    // What the manager's configuration says runs (script-shell, yarnPath, ...) is approved with it.
    ...config.sources,
  ];
  const program = managerProgram(manager.name, { ...options.files, platform: options.platform, env: options.env ?? {}, cwd });
  const scripts = typeof fields['scripts'] === 'object' && fields['scripts'] !== null ? (fields['scripts'] as Record<string, unknown>) : {};
  return { file, text: read.text, scripts, manager, program, config, sources };
}

/** How one script runs: its argv (with `{{args}}` where the tool's extra arguments go, if it takes them), the workspace files it runs; or why it cannot. */
export function scriptRun(pkg: PackageScripts, script: string, options: ImportOptions, withArgs: boolean): { readonly argv: string[]; readonly programFiles: string[] } | { readonly reason: string } {
  const reason = scriptProblem(script, pkg.scripts[script], withArgs ? options.platform : undefined) ?? ('refusal' in pkg.program ? pkg.program.refusal : undefined);
  if (reason !== undefined || 'refusal' in pkg.program) {
    return { reason: reason ?? '' };
  }
  const argv = runScriptArgv(pkg.manager.name, script, pkg.program.argv, withArgs);
  const cwd = path.join(options.folder.path, path.dirname(pkg.file));
  return { argv, programFiles: [...new Set([...pkg.config.programFiles, ...scriptProgramFiles(pkg.scripts, script, options.folder.path, cwd)])] };
}

/** Lines of one script shown for approval before it points at package.json instead. */
const MAX_BODY_LINES = 30;

/**
 * What the script runs, as package.json writes it, with its `pre` and `post` scripts (npm and
 * yarn 1 run them around it), for the person who approves it: `npm run lint` alone says nothing
 * of what `lint` is. Credentials in it are hidden, as in every command shown.
 */
export function scriptBody(pkg: PackageScripts, script: string): string[] {
  const parts: [string, string][] = [
    [`pre${script}`, `script "pre${script}" (before "${script}")`],
    [script, `script "${script}"`],
    [`post${script}`, `script "post${script}" (after "${script}")`],
  ];
  return parts.flatMap(([name, label]) => {
    const body = Object.hasOwn(pkg.scripts, name) ? pkg.scripts[name] : undefined;
    if (typeof body !== 'string') {
      return [];
    }
    const lines = body.split(/\r?\n/);
    const more = lines.length > MAX_BODY_LINES ? [`| … ${lines.length - MAX_BODY_LINES} more lines: read them in ${pkg.file}`] : [];
    return [`${pkg.file} ${label}:`, ...lines.slice(0, MAX_BODY_LINES).map((line) => `| ${redactSecrets(line)}`), ...more];
  });
}

/**
 * The workspace files the script runs, and its `pre` and `post` scripts (the manager runs them
 * around it): each command line's program written as a path and the script an interpreter is handed.
 */
function scriptProgramFiles(scripts: Readonly<Record<string, unknown>>, script: string, folder: string, cwd: string): string[] {
  const bodies = [`pre${script}`, script, `post${script}`].map((name) => (Object.hasOwn(scripts, name) ? scripts[name] : undefined)).filter((body): body is string => typeof body === 'string');
  return bodies.flatMap((body) => workspaceProgramFiles({ script: body, shell: 'sh' }, folder, cwd));
}

/** Why a script cannot be a tool, or undefined; `argsOn` is the platform when the tool appends its "args" to the script. */
function scriptProblem(script: string, body: unknown, argsOn: { readonly windows: boolean } | undefined): string | undefined {
  if (typeof body !== 'string') {
    return 'its value is not a string';
  }
  if (script.startsWith('-')) {
    return 'its name starts with "-", which the package manager would read as an option';
  }
  if (placeholderNames(script).length > 0) {
    return 'its name contains "{{...}}", which the tool would read as a parameter';
  }
  if (argsOn === undefined) {
    // No values reach the script: what runs is the approved package.json's text alone.
    return undefined;
  }
  // The package manager appends the tool's "args" to the script's line: read it with them at its end.
  const windows = argsOn.windows;
  const appended = windows ? '%*' : '"$@"';
  const problem = scriptValueProblem([{ text: `${body} ${appended}` }], windows ? 'cmd' : 'posix', { variables: new Map(), positional: true });
  return problem === undefined ? undefined : `its "args" are appended to the script's line, and ${problem}`;
}
