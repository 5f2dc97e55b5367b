/**
 * `check`: loads every plugin file and prints each problem compiler-style
 * (`path:line:column: message`) for editors, pre-commit hooks and CI. Nothing is served or run,
 * and approval does not matter: unapproved files are checked too.
 */
import type { ApprovalPolicy } from '../../core/approval/approval-policy';
import type { ServerConfig } from '../../core/settings/server-config';
import { servesAnything } from '../../core/registry/snapshot';
import { formatDiagnostic } from '../../core/types';
import { stderrLogger } from '../stderr-logger';
import { displayPath, setUp } from './setup';

/** Approves nothing and stores nothing: check never touches the approval store. */
const CHECK_ONLY: ApprovalPolicy = {
  statesOf: (files) => Promise.resolve(new Map(files.map((file) => [file.file, 'new'] as const))),
  approve: () => Promise.reject(new Error('check approves nothing')),
};

/** Prints the problems; resolves to 1 when there is any, else 0. */
export async function check(options: ServerConfig): Promise<number> {
  const { registry } = setUp(options, stderrLogger(options.logLevel === 'info' ? 'warn' : options.logLevel), CHECK_ONLY);
  await registry.initialize();
  const files = registry.files();
  const diagnostics = registry.diagnostics();
  for (const diagnostic of diagnostics) {
    process.stdout.write(`${formatDiagnostic({ ...diagnostic, file: displayPath(diagnostic.file) })}\n`);
  }
  const broken = new Set(diagnostics.map((diagnostic) => diagnostic.file)).size;
  // An empty file is no mistake (the editor's New Plugin File starts one), but it is worth a word:
  // it passes, and serves nothing.
  for (const file of files.filter((status) => !servesAnything(status) && !diagnostics.some((diagnostic) => diagnostic.file === status.file))) {
    process.stderr.write(`${displayPath(file.file)}: defines no tools, prompts or resources yet.\n`);
  }
  const checked = `${files.length} plugin file${files.length === 1 ? '' : 's'} checked`;
  process.stderr.write(
    diagnostics.length === 0
      ? `${checked}: no problems.\n`
      : `${checked}: ${diagnostics.length} problem${diagnostics.length === 1 ? '' : 's'} in ${broken} file${broken === 1 ? '' : 's'}.\n`,
  );
  registry.dispose();
  return diagnostics.length === 0 ? 0 : 1;
}
