/**
 * The `shell` handler: runs a program from an argv (`command`) or a script through a shell
 * (`script`), never building shell text from input values. See DESIGN.md "shell handler".
 */
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { ShellHandlerSpec } from '../plugins/plugin-types';
import { runProcess, type ProcessRequest } from '../process/run-process';
import { errorResult, type ToolInput, type ToolResult, type ToolRunContext } from '../types';
import type { HandlerStrategy, HandlerTarget } from './handler-types';
import { checkShellSpec } from './shell/check';
import { formatArgv, splitCommandLine } from './shell/command-line';
import { expandArgv, expandEnvValue, expandText } from './shell/expand';
import { effectiveProgram } from './shell/platform';
import { formatOutcome } from './shell/result';
import { applyDefaults, checkValues, inputEnv, ShellValueError } from './shell/values';

const IS_WINDOWS = process.platform === 'win32';

/** What one call runs, built from the spec and the input before anything is spawned. */
interface ShellPlan {
  readonly request: ProcessRequest;
  readonly exitCodes: readonly number[];
}

/** The `shell` handler strategy. */
export const shellHandler: HandlerStrategy<ShellHandlerSpec> = {
  check: checkShellSpec,
  summarize: summarizeShell,
  create: (spec, target) => (input, context) => runShell(spec, target, input, context),
};

/** The exact command (argv quoted for display) or `script: <first line>`, for this platform. */
export function summarizeShell(spec: ShellHandlerSpec): string {
  const program = effectiveProgram(spec, process.platform);
  if (program.script !== undefined) {
    const firstLine = program.script.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
    return `script: ${firstLine.trim()}`;
  }
  const command = program.command ?? [];
  if (typeof command !== 'string') {
    return formatArgv(command);
  }
  const split = splitCommandLine(command);
  return split.ok ? formatArgv(split.args) : command;
}

async function runShell(
  spec: ShellHandlerSpec,
  target: HandlerTarget,
  rawInput: ToolInput,
  context: ToolRunContext,
): Promise<ToolResult> {
  let plan: ShellPlan;
  try {
    plan = buildPlan(spec, target, rawInput, context);
  } catch (error) {
    if (error instanceof ShellValueError) {
      return errorResult(error.message);
    }
    throw error;
  }
  const { request } = plan;
  const cwdProblem = await checkDirectory(request.cwd);
  if (cwdProblem !== undefined) {
    return errorResult(cwdProblem);
  }
  context.logger.debug(`[shell] ${target.toolName}: ${formatArgv([request.file, ...request.args])}`);
  const outcome = await runProcess(request);
  return formatOutcome(outcome, {
    program: request.file,
    timeoutMs: request.timeoutMs,
    exitCodes: plan.exitCodes,
  });
}

/** Defaults, value checks and expansion; throws ShellValueError for input the model must fix. */
function buildPlan(
  spec: ShellHandlerSpec,
  target: HandlerTarget,
  rawInput: ToolInput,
  context: ToolRunContext,
): ShellPlan {
  const input = applyDefaults(rawInput, target.inputSchema);
  checkValues(input, context.limits.maxValueLength);
  const program = effectiveProgram(spec, process.platform);
  const argvOptions = { allowLeadingDash: spec.allowLeadingDash === true };
  const isScript = program.script !== undefined;
  const argv = isScript
    ? scriptArgv(spec, program.script ?? '', target.toolName, expandArgv(spec.args ?? [], input, argvOptions))
    : expandArgv(commandTokens(program.command ?? []), input, argvOptions);
  const [file, ...args] = argv;
  if (file === undefined || file === '') {
    throw new ShellValueError(
      'The command is empty after leaving out absent values; the program to run must not come from an absent value.',
    );
  }
  const env = buildEnv(spec, isScript ? inputEnv(input, target.inputSchema) : {}, input, context);
  const request: ProcessRequest = {
    file,
    args,
    cwd: path.resolve(target.folder.path, spec.cwd ?? '.'),
    env,
    timeoutMs: spec.timeout ?? context.limits.shellTimeoutMs,
    maxOutputBytes: spec.maxOutputBytes ?? context.limits.maxOutputBytes,
    ...(spec.stdin === undefined ? {} : { stdin: expandText(spec.stdin, input) }),
    signal: context.signal,
    ...(isCmd(scriptShell(spec)) && isScript ? { windowsVerbatimArguments: true } : {}),
  };
  return { request, exitCodes: spec.exitCodes ?? [0] };
}

/**
 * The child's environment: the context's, then (scripts) the INPUT_ variables, then the spec's
 * `env`, whose templates may use `{{x}}` values and `${env:NAME}` from the context.
 */
function buildEnv(
  spec: ShellHandlerSpec,
  inputVariables: Readonly<Record<string, string | undefined>>,
  input: ToolInput,
  context: ToolRunContext,
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...context.env, ...inputVariables };
  for (const [name, template] of Object.entries(spec.env ?? {})) {
    env[name] = expandEnvValue(template, input, context.env);
  }
  return env;
}

/** A string command split like the check did; an unsplittable one is a plugin bug. */
function commandTokens(command: string | readonly string[]): readonly string[] {
  if (typeof command !== 'string') {
    return command;
  }
  const split = splitCommandLine(command);
  if (!split.ok) {
    throw new Error(`The tool's command cannot be run: ${split.message}`);
  }
  return split.args;
}

function scriptShell(spec: ShellHandlerSpec): string {
  return spec.shell ?? (IS_WINDOWS ? 'cmd.exe' : 'sh');
}

function shellBaseName(shell: string): string {
  return path.basename(shell.replace(/\\/g, '/')).toLowerCase().replace(/\.exe$/, '');
}

function isCmd(shell: string): boolean {
  return shellBaseName(shell) === 'cmd';
}

/**
 * The argv that runs a script. POSIX-style shells get `-c script toolName args...`, so the
 * values are $1, $2, ... and never script text. cmd.exe and PowerShell have no positional
 * arguments for a command string (they would be appended to the text and parsed), so with
 * them values travel only as INPUT_ environment variables and `args` are refused.
 */
function scriptArgv(
  spec: ShellHandlerSpec,
  script: string,
  toolName: string,
  args: readonly string[],
): string[] {
  const shell = scriptShell(spec);
  const base = shellBaseName(shell);
  const noPositional = base === 'cmd' || base === 'powershell' || base === 'pwsh';
  if (noPositional && (spec.args ?? []).length > 0) {
    throw new ShellValueError(
      `The tool's "args" cannot be passed to ${base}: it has no positional arguments. ` +
        'The tool must read its values from INPUT_<NAME> environment variables.',
    );
  }
  if (base === 'cmd') {
    // Verbatim, quoted as Node does for `shell: true`; /s strips exactly these outer quotes.
    return [shell, '/d', '/s', '/c', `"${script}"`];
  }
  if (noPositional) {
    return [shell, '-NoProfile', '-NonInteractive', '-Command', script];
  }
  return [shell, '-c', script, toolName, ...args];
}

/** A message when `cwd` is not an existing directory (spawn would blame the program). */
async function checkDirectory(cwd: string): Promise<string | undefined> {
  try {
    const info = await stat(cwd);
    return info.isDirectory() ? undefined : `The working directory "${cwd}" is not a directory.`;
  } catch {
    return `The working directory "${cwd}" does not exist. Check the tool's "cwd".`;
  }
}
