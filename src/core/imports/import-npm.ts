/**
 * package.json `scripts` to tools: `npm-<script>` runs the script with the workspace's package
 * manager (package-manager.ts), an optional `args` array passed on as argv (never shell text of
 * ours: the package manager hands them to the script's shell quoted). On Windows a manager that
 * is a batch shim runs as the program the shim starts (manager-program.ts).
 */
import { placeholderNames } from '../templates';
import type { ImportedTool, ImportResult, ImportSource, NotServed } from './imported-tool';
import type { ImportOptions } from './import-options';
import { readImportSource } from './import-source';
import { keyPositions } from './json-locations';
import { LOCK_FILES, packageManagerOf, runScriptArgv } from './package-manager';
import { managerProgram } from './manager-program';
import { toolNameOf } from './tool-names';
import { formatArgv } from '../handlers/shell/command-line';
import { workspaceProgramFiles } from '../handlers/shell/program-words';
import { managerConfig } from './manager-config';
import { scriptValueProblem } from '../handlers/shell/nested-code';
import { redactSecrets } from '../redact';

export const PACKAGE_FILE = 'package.json';

/** The `args` parameter every script tool has. */
const ARGS_SCHEMA = {
  type: 'array',
  items: { type: 'string' },
  description: 'Extra arguments for the script, each one argument (for example ["--watch=false", "src/a.test.ts"]).',
} as const;

/** Imports the scripts of package.json in the folder. */
export async function importNpmScripts(options: ImportOptions): Promise<ImportResult> {
  const read = await readImportSource(options.folder, PACKAGE_FILE);
  if ('absent' in read) {
    return { tools: [], notServed: [], sources: [{ path: PACKAGE_FILE, content: null }] };
  }
  const at = { file: PACKAGE_FILE, line: 1, column: 1 };
  if ('problem' in read) {
    return { tools: [], notServed: [{ name: PACKAGE_FILE, reason: read.problem, source: at }], sources: [] };
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(read.text);
  } catch (error) {
    return { tools: [], notServed: [{ name: PACKAGE_FILE, reason: `package.json is not valid JSON: ${error instanceof Error ? error.message : String(error)}`, source: at }], sources: [{ path: PACKAGE_FILE, content: read.text }] };
  }
  const fields = typeof manifest === 'object' && manifest !== null ? (manifest as Record<string, unknown>) : {};
  const manager = await packageManagerOf(options.folder.path, fields['packageManager']);
  const config = await managerConfig(options.folder);
  const sources: ImportSource[] = [
    { path: PACKAGE_FILE, content: read.text },
    // Which lock files exist decides the program: their presence is approved, not their churn.
    ...(fields['packageManager'] === undefined ? LOCK_FILES.map(([file]) => ({ path: file, content: file === manager.lockFile ? '' : null, presenceOnly: true })) : []),
    // What the manager's configuration says runs (script-shell, yarnPath, ...) is approved with it.
    ...config.sources,
  ];
  const program = managerProgram(manager.name, { ...options.files, platform: options.platform, env: options.env ?? {}, cwd: options.folder.path });
  const scripts = typeof fields['scripts'] === 'object' && fields['scripts'] !== null ? (fields['scripts'] as Record<string, unknown>) : {};
  const positions = keyPositions(read.text, ['scripts']);
  const tools: ImportedTool[] = [];
  const notServed: NotServed[] = [];
  for (const [script, body] of Object.entries(scripts)) {
    const source = { file: PACKAGE_FILE, ...(positions.get(script) ?? { line: 1, column: 1 }) };
    const name = toolNameOf(options.prefix ?? 'npm-', script);
    // A manager that cannot run here (a batch shim whose program was not found) serves no script:
    // each is reported at its place, as any task that cannot be served.
    const reason = 'reason' in name ? name.reason : (scriptProblem(script, body, options.platform.windows) ?? ('refusal' in program ? program.refusal : undefined));
    if (reason !== undefined || 'reason' in name || 'refusal' in program) {
      notServed.push({ name: script, reason: reason ?? '', source });
      continue;
    }
    const argv = runScriptArgv(manager.name, script, program.argv);
    const shimNote = program.shim === undefined ? '' : ` (${manager.name} is the batch file ${program.shim}, which cannot take arguments safely: what it starts runs instead)`;
    const description = redactSecrets(`Runs the package.json script "${script}" with ${manager.name} (chosen by ${manager.decidedBy}): ${String(body)}. Runs: ${formatArgv(argv)}${shimNote}.`);
    const inputSchema = { type: 'object' as const, properties: { args: ARGS_SCHEMA }, additionalProperties: false };
    tools.push({
      name: name.name,
      taskName: script,
      description,
      inputSchema,
      source,
      run: { kind: 'process', argv },
      // The arguments are the script's options: a leading "-" is what they are for, and they follow the script name.
      spec: { name: name.name, description, inputSchema, handler: { type: 'shell', command: argv, allowLeadingDash: true } },
      programFiles: [...config.programFiles, ...scriptProgramFiles(scripts, script, options.folder.path)],
      ...(config.notCovered.length === 0 ? {} : { notCovered: config.notCovered }),
    });
  }
  return { tools, notServed, sources };
}

/**
 * The workspace files the script runs, and its `pre` and `post` scripts (the manager runs them
 * around it): each command line's program written as a path and the script an interpreter is handed.
 */
function scriptProgramFiles(scripts: Readonly<Record<string, unknown>>, script: string, folder: string): string[] {
  const bodies = [`pre${script}`, script, `post${script}`].map((name) => (Object.hasOwn(scripts, name) ? scripts[name] : undefined)).filter((body): body is string => typeof body === 'string');
  return [...new Set(bodies.flatMap((body) => workspaceProgramFiles({ script: body, shell: 'sh' }, folder, folder)))];
}

/** Why a script cannot be a tool, or undefined. */
function scriptProblem(script: string, body: unknown, windows: boolean): string | undefined {
  if (typeof body !== 'string') {
    return 'its value is not a string';
  }
  if (script.startsWith('-')) {
    return 'its name starts with "-", which the package manager would read as an option';
  }
  if (placeholderNames(script).length > 0) {
    return 'its name contains "{{...}}", which the tool would read as a parameter';
  }
  // The package manager appends the tool's "args" to the script's line: read it with them at its end.
  const appended = windows ? '%*' : '"$@"';
  const problem = scriptValueProblem([{ text: `${body} ${appended}` }], windows ? 'cmd' : 'posix', { variables: new Map(), positional: true });
  return problem === undefined ? undefined : `its "args" are appended to the script's line, and ${problem}`;
}
