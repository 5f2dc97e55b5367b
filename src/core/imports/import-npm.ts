/**
 * package.json `scripts` to tools: `npm-<script>` runs the script with the workspace's package
 * manager (package-manager.ts), an optional `args` array passed on as argv (never shell text of
 * ours: the package manager hands them to the script's shell quoted). On Windows a manager that
 * is a batch shim runs as the program the shim starts (manager-program.ts).
 */
import type { ImportedTool, ImportResult, NotServed } from './imported-tool';
import type { ImportOptions } from './import-options';
import { keyPositions } from './json-locations';
import { PACKAGE_FILE, readPackageScripts, scriptBody, scriptRun } from './package-scripts';
import { toolNameOf } from './tool-names';
import { formatArgv } from '../handlers/shell/command-line';
import { redactSecrets } from '../redact';

export { PACKAGE_FILE } from './package-scripts';

/** npm's convention for a comment in package.json: a `"//"` key, never a script. */
const COMMENT_KEY = '//';

/** The `args` parameter every script tool has. */
const ARGS_SCHEMA = {
  type: 'array',
  items: { type: 'string' },
  description: 'Extra arguments for the script, each one argument (for example ["--watch=false", "src/a.test.ts"]).',
} as const;

/** Imports the scripts of package.json in the folder. */
export async function importNpmScripts(options: ImportOptions): Promise<ImportResult> {
  const pkg = await readPackageScripts(options);
  if ('absent' in pkg) {
    return { tools: [], notServed: [], sources: pkg.sources };
  }
  if ('problem' in pkg) {
    return { tools: [], notServed: [{ name: PACKAGE_FILE, reason: pkg.problem, source: { file: PACKAGE_FILE, line: 1, column: 1 } }], sources: pkg.sources };
  }
  const positions = keyPositions(pkg.text, ['scripts']);
  const tools: ImportedTool[] = [];
  const notServed: NotServed[] = [];
  for (const [script, body] of Object.entries(pkg.scripts)) {
    if (script === COMMENT_KEY) {
      continue;
    }
    const source = { file: PACKAGE_FILE, ...(positions.get(script) ?? { line: 1, column: 1 }) };
    const name = toolNameOf(options.prefix ?? 'npm-', script);
    // A manager that cannot run here (a batch shim whose program was not found) serves no script:
    // each is reported at its place, as any task that cannot be served.
    const run = 'reason' in name ? name : scriptRun(pkg, script, options, true);
    if ('reason' in run || 'reason' in name || 'refusal' in pkg.program) {
      notServed.push({ name: script, reason: 'reason' in run ? run.reason : '', source });
      continue;
    }
    const { manager, program, config } = pkg;
    const shimNote = program.shim === undefined ? '' : ` (${manager.name} is the batch file ${program.shim}, which cannot take arguments safely: what it starts runs instead)`;
    const description = redactSecrets(`Runs the package.json script "${script}" with ${manager.name} (chosen by ${manager.decidedBy}): ${String(body)}. Runs: ${formatArgv(run.argv)}${shimNote}.`);
    const inputSchema = { type: 'object' as const, properties: { args: ARGS_SCHEMA }, additionalProperties: false };
    tools.push({
      name: name.name,
      taskName: script,
      description,
      inputSchema,
      source,
      run: { kind: 'process', argv: run.argv },
      // The arguments are the script's options: a leading "-" is what they are for, and they follow the script name.
      spec: { name: name.name, description, inputSchema, handler: { type: 'shell', command: run.argv, allowLeadingDash: true } },
      programFiles: run.programFiles,
      ...(config.notCovered.length === 0 ? {} : { notCovered: config.notCovered }),
      body: scriptBody(pkg, script),
    });
  }
  return { tools, notServed, sources: pkg.sources };
}
