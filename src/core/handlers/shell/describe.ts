/**
 * What a shell handler runs, in words: the one-line summary (tooltips, listings) and the lines a
 * person reads before approving its file (every program, each platform's, the whole script).
 * Built from the programs split at load, never by parsing the file again.
 */
import { redactSecrets } from '../../redact';
import { formatArgv } from './command-line';
import type { ProgramKey, ShellHandlerSpec, SplitProgram } from './spec';

/** Lines of a `script` shown for approval before it points at the file instead. */
const MAX_SCRIPT_LINES = 30;

/** The exact command (argv quoted for display) or `script: <first line>`. */
export function shellSummary(program: SplitProgram): string {
  if (program.script !== undefined) {
    const firstLine = program.script.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
    return redactSecrets(`script: ${firstLine.trim()}`);
  }
  return formatArgv(program.command ?? []);
}

/** Everything the handler can run, on every platform, with its working directory, env and stdin. */
export function shellApprovalLines(spec: ShellHandlerSpec, programs: Readonly<Partial<Record<ProgramKey, SplitProgram>>>): string[] {
  const lines = programLines(spec, programs.handler ?? {});
  for (const platform of ['windows', 'osx', 'linux'] as const) {
    const override = programs[platform];
    if (override !== undefined) {
      lines.push(`on ${platform}:`, ...programLines(spec, override).map((line) => `    ${line}`));
    }
  }
  if (spec.cwd !== undefined) {
    lines.push(`in: ${spec.cwd}`);
  }
  if (spec.env !== undefined) {
    lines.push(redactSecrets(`env: ${Object.entries(spec.env).map(([key, value]) => `${key}=${value}`).join(' ')}`));
  }
  if (spec.stdin !== undefined) {
    lines.push(redactSecrets(`stdin: ${spec.stdin}`));
  }
  return lines;
}

function programLines(spec: ShellHandlerSpec, program: SplitProgram): string[] {
  if (program.script !== undefined) {
    const script = program.script.split(/\r?\n/);
    const shown = script.slice(0, MAX_SCRIPT_LINES).map((line) => `| ${redactSecrets(line)}`);
    const more = script.length > MAX_SCRIPT_LINES ? [`| … ${script.length - MAX_SCRIPT_LINES} more lines: read them in the file`] : [];
    const args = spec.args === undefined ? [] : [`args: ${formatArgv(spec.args)}`];
    return [`script run by ${spec.shell ?? 'the default shell'}:`, ...shown, ...more, ...args];
  }
  return program.command === undefined ? [] : [`runs: ${formatArgv(program.command)}`];
}
