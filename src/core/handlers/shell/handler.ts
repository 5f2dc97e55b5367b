/**
 * The `shell` handler: runs a program from an argv (`command`) or a script through a shell
 * (`script`), never building shell text from input values. See DESIGN.md "shell handler".
 * Compiled once: the command is split, checked and turned into argv templates at load; a call
 * only fills in values.
 */
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { latestLineReporter } from '../../process/latest-line';
import { LargeOutputTee, TAIL_BYTES } from '../../output/large-output';
import type { OutputResource } from '../../output/output-store';
import type { Platform } from '../../platform/platform';
import { hostPlatform } from '../../platform/platform';
import { runProcess, type ProcessOutcome, type ProcessRequest } from '../../process/run-process';
import { ToolInputError } from '../../tool-errors';
import type { RunDetails, ToolInput, ToolResult, ToolRunContext } from '../../types';
import { formatSize } from '../../content/parts';
import type { HandlerTarget, HandlerType } from '../handler';
import type { MediaOutput } from '../media-output';
import { MediaBytes, mediaResult } from '../media-output';
import type { TemplatePart } from '../../templates';
import { parseTemplate } from '../../templates';
import { checkShellSpec } from './check';
import { shellBaseName, shellKindOf } from './shell-kind';
import { formatArgv } from './command-line';
import { shellApprovalLines, shellSummary } from './describe';
import { workspaceProgramFiles } from './program-words';
import type { ArgvToken } from './expand';
import { compileArgv, expandArgv, expandEnvValue, expandText } from './expand';
import { effectiveProgram } from './platform';
import { formatOutcome } from './result';
import { SHELL_DEFAULT_TAGS, prepareRun } from './sandboxed-run';
import type { ProgramKey, ShellHandlerSpec, SplitProgram } from './spec';
import { checkValues, inputEnv } from './values';
import { spawnFormFor } from './windows-spawn';

/** Everything a call needs that does not depend on the input: built once, at load. */
interface CompiledShell {
  readonly spec: ShellHandlerSpec;
  readonly target: HandlerTarget;
  /** The argv templates; for a script, the shell's fixed words first, then `args`. */
  readonly argv: readonly ArgvToken[];
  readonly isScript: boolean;
  readonly env: ReadonlyArray<readonly [string, readonly TemplatePart[]]>;
  readonly stdin?: readonly TemplatePart[];
  readonly cwd: string;
  readonly windowsVerbatimArguments: boolean;
  readonly platform: Platform;
  /** Some argument (not the program) comes from an input value: a batch file cannot take it. */
  readonly valuesInArguments: boolean;
}

/** The `shell` handler type. */
export const shellHandler: HandlerType<ShellHandlerSpec> = {
  defaultTags: SHELL_DEFAULT_TAGS,
  compile(spec, target) {
    const platform = hostPlatform();
    const { problems, programs } = checkShellSpec(spec, target.inputSchema);
    const program = effectiveProgram(programs, platform);
    const scriptProblems = [...(program.script === undefined ? [] : scriptArgsProblems(spec, platform)), ...cmdPercentProblems(spec, programs)];
    if (problems.length > 0 || scriptProblems.length > 0) {
      return { problems: [...problems, ...scriptProblems] };
    }
    const compiled = compileShell(spec, program, target, platform);
    return {
      run: (input, context) => runShell(compiled, input, context),
      preview: (input, limits) => {
        checkValues(input, limits.maxValueLength);
        const argv = expandArgv(compiled.argv, input, { allowLeadingDash: spec.allowLeadingDash === true });
        const lines = argv.map((arg, index) => `${index === 0 ? 'program' : `arg ${index}`}: ${formatArgv([arg])}`);
        // A script reads its values from the environment, never from its text.
        const values = compiled.isScript ? Object.entries(inputEnv(input, target.inputSchema)).filter(([, value]) => value !== undefined) : [];
        return [...lines, ...values.map(([name, value]) => `env ${name}: ${formatArgv([value ?? ''])}`)];
      },
      summary: shellSummary(program),
      approvalLines: shellApprovalLines(spec, programs),
      programFiles: workspaceProgramFiles({ ...program, shell: scriptShell(spec, platform) }, target.folder.path, compiled.cwd),
    };
  },
};

function compileShell(spec: ShellHandlerSpec, program: SplitProgram, target: HandlerTarget, platform: Platform): CompiledShell {
  const isScript = program.script !== undefined;
  const argv = isScript
    ? [...scriptWords(scriptShell(spec, platform), program.script ?? '', target.toolName).map((text): ArgvToken => ({ kind: 'template', parts: [{ kind: 'text', text }] })), ...compileArgv(spec.args ?? [])]
    : compileArgv(program.command ?? []);
  return {
    spec,
    target,
    argv,
    isScript,
    env: Object.entries(spec.env ?? {}).map(([name, template]) => [name, parseTemplate(template)] as const),
    ...(spec.stdin === undefined ? {} : { stdin: parseTemplate(spec.stdin) }),
    cwd: path.resolve(target.folder.path, spec.cwd ?? '.'),
    windowsVerbatimArguments: isScript && isCmd(scriptShell(spec, platform)),
    platform,
    valuesInArguments: argv.slice(1).some((token) => token.kind === 'whole' || token.parts.some((part) => part.kind !== 'text')),
  };
}

async function runShell(compiled: CompiledShell, input: ToolInput, context: ToolRunContext): Promise<ToolResult> {
  const { shown, ...built } = buildRequest(compiled, input, context);
  await checkDirectory(built.cwd);
  context.logger.debug(`[shell] ${compiled.target.toolName}: ${shown}`);
  // The one place the process is put in the OS sandbox (steps and imported tools run through here).
  const run = await prepareRun(built, compiled.target, context);
  const ran = { ran: shown, ...(run.sandbox === undefined ? {} : { sandbox: run.sandbox }) };
  let result: ToolResult | undefined;
  try {
    result = await runPrepared(run.request, built.file, compiled, context, ran);
  } finally {
    // Cleans up after the sandbox even when the run threw; explains what it refused.
    result = await run.finish(result ?? { text: '', isError: true });
  }
  return result;
}

/** Runs the (sandboxed) request; `program` is what the tool runs, for a "could not start" message. */
async function runPrepared(request: ProcessRequest, program: string, compiled: CompiledShell, context: ToolRunContext, ran: RunDetails): Promise<ToolResult> {
  const media = compiled.target.mediaOutput;
  if (media !== undefined) {
    return runForMedia(request, program, media, compiled, ran);
  }
  const outputs = context.outputs;
  const threshold = context.limits.largeOutputBytes;
  const tee = outputs === undefined ? undefined : new LargeOutputTee(() => outputs.createSink(compiled.target.toolName), threshold);
  const raw = await runProcess(tee === undefined ? request : { ...request, teeStdout: (chunk) => tee.push(chunk) });
  const resources = await tee?.finish();
  const outcome = resources === undefined || tee === undefined ? raw : withLargeStdout(raw, tee, resources, threshold);
  const result = formatOutcome(outcome, { program, timeoutMs: request.timeoutMs, exitCodes: compiled.spec.exitCodes ?? [0], maxOutputBytes: request.maxOutputBytes });
  return {
    ...result,
    details: { ...result.details, ...ran },
    ...(resources === undefined ? {} : { resources }),
  };
}

/**
 * A program whose stdout is an image or audio file: the bytes are kept (never decoded as text),
 * and a run that ended well is one media part with stderr, if any, after it.
 */
async function runForMedia(request: ProcessRequest, program: string, media: MediaOutput, compiled: CompiledShell, ran: RunDetails): Promise<ToolResult> {
  const bytes = new MediaBytes(request.maxOutputBytes);
  const outcome = await runProcess({ ...request, onStdout: (chunk) => bytes.push(chunk) });
  const context = { program, timeoutMs: request.timeoutMs, exitCodes: compiled.spec.exitCodes ?? [0], maxOutputBytes: request.maxOutputBytes };
  const shown = formatOutcome({ ...outcome, stdout: `[${formatSize(bytes.totalBytes)} of ${media.mimeType} output]` }, context);
  if (shown.isError) {
    return { ...shown, details: { ...shown.details, ...ran } };
  }
  const stderr = outcome.stderr === '' ? undefined : `stderr:\n${outcome.stderr}`;
  const result = mediaResult(media, bytes, { source: 'The command\'s stdout', cap: request.maxOutputBytes, capName: 'maxOutputBytes', ...(stderr === undefined ? {} : { note: stderr }) });
  return { ...result, details: { ...ran, ...(shown.details?.exitCode === undefined ? {} : { exitCode: shown.details.exitCode }) } };
}

/**
 * A large stdout as the answer shows it: its head, a line that says where the whole output is,
 * and its tail; nothing is "truncated" any more, since the whole is kept.
 */
function withLargeStdout(outcome: ProcessOutcome, tee: LargeOutputTee, resources: readonly OutputResource[], threshold: number): ProcessOutcome {
  const head = outcome.stdout.slice(0, Math.max(threshold - TAIL_BYTES, 0));
  const tail = tee.tailText();
  const omitted = tee.totalBytes - Buffer.byteLength(head) - Buffer.byteLength(tail);
  const where =
    resources.length === 1
      ? `is the resource ${resources[0]?.uri ?? ''}`
      : `is in ${resources.length} resources, ${resources[0]?.uri ?? ''} to ${resources.at(-1)?.uri ?? ''}`;
  const marker = `\n[… ${omitted} bytes not shown: the whole output (${tee.totalBytes} bytes) ${where}]\n`;
  return { ...outcome, stdout: `${head}${marker}${tail}`, stdoutDroppedBytes: 0 };
}

/** A request to run, with what is shown of it: the argv with `${env:...}` unread (formatArgv hides URL credentials). */
type ShellRequest = ProcessRequest & { readonly shown: string };

/** Value checks and filling in; throws ToolInputError for input the model must fix. */
function buildRequest(compiled: CompiledShell, input: ToolInput, context: ToolRunContext): ShellRequest {
  const { spec } = compiled;
  checkValues(input, context.limits.maxValueLength);
  const allowLeadingDash = spec.allowLeadingDash === true;
  // A script's words are its text, where `${env:...}` is the shell's (PowerShell) own syntax.
  const [file, ...args] = expandArgv(compiled.argv, input, compiled.isScript ? { allowLeadingDash } : { allowLeadingDash, hostEnv: context.env });
  if (file === undefined || file === '') {
    throw new ToolInputError('The command is empty after leaving out absent values; the program to run must not come from an absent value.');
  }
  const env = buildEnv(compiled, input, context);
  const spawnForm = spawnFormFor({
    file,
    args,
    verbatim: compiled.windowsVerbatimArguments,
    valuesInArguments: compiled.valuesInArguments,
    platform: compiled.platform,
    env,
    cwd: compiled.cwd,
  });
  return {
    shown: formatArgv(expandArgv(compiled.argv, input, { allowLeadingDash })),
    file: spawnForm.file,
    args: spawnForm.args,
    cwd: compiled.cwd,
    env,
    timeoutMs: context.timeoutMs ?? spec.timeout ?? context.limits.timeoutMs,
    maxOutputBytes: spec.maxOutputBytes ?? context.limits.maxOutputBytes,
    ...(compiled.stdin === undefined ? {} : { stdin: expandText(compiled.stdin, input) }),
    signal: context.signal,
    ...(context.progress === undefined ? {} : { observeOutput: latestLineReporter(context.progress) }),
    ...(spawnForm.windowsVerbatimArguments ? { windowsVerbatimArguments: true } : {}),
  };
}

/**
 * The child's environment: the context's, then (scripts) the INPUT_ variables, then the spec's
 * `env`, whose templates may use `{{x}}` values and `${env:NAME}` from the context.
 */
function buildEnv(compiled: CompiledShell, input: ToolInput, context: ToolRunContext): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...context.env, ...(compiled.isScript ? inputEnv(input, compiled.target.inputSchema) : {}) };
  for (const [name, parts] of compiled.env) {
    env[name] = expandEnvValue(parts, input, context.env);
  }
  return env;
}

function scriptShell(spec: ShellHandlerSpec, platform: Platform): string {
  return spec.shell ?? (platform.windows ? 'cmd.exe' : 'sh');
}

function isCmd(shell: string): boolean {
  return shellKindOf(shell) === 'cmd';
}

/** cmd.exe and PowerShell take no positional arguments for a command string. */
function hasNoPositionalArguments(shell: string): boolean {
  return shellKindOf(shell) !== 'posix';
}

/**
 * `args` with a shell that has no positional arguments would be appended to the script text and
 * parsed: a load error, so values travel only as INPUT_ environment variables there.
 */
function scriptArgsProblems(spec: ShellHandlerSpec, platform: Platform): ShellProblem[] {
  const shell = scriptShell(spec, platform);
  if (!hasNoPositionalArguments(shell) || (spec.args ?? []).length === 0) {
    return [];
  }
  return [{ path: ['handler', 'args'], message: `"args" cannot be passed to ${shellBaseName(shell)}: it has no positional arguments. Read the values from INPUT_<NAME> environment variables.` }];
}

type ShellProblem = { readonly path: readonly string[]; readonly message: string };

/**
 * cmd.exe expands `%INPUT_X%` before it parses the line, which would make a value script text:
 * every script that cmd.exe runs on Windows (the base one unless a `windows` override replaces
 * it, or any when `shell` is cmd) must read `!INPUT_X!` (delayed expansion, switched on), which
 * is expanded after parsing. Checked on every platform, so the author sees it where they write.
 */
function cmdPercentProblems(spec: ShellHandlerSpec, programs: Readonly<Partial<Record<ProgramKey, SplitProgram>>>): ShellProblem[] {
  const windows = programs.windows !== undefined && (programs.windows.command !== undefined || programs.windows.script !== undefined);
  const candidates: [readonly string[], string | undefined][] = isCmd(spec.shell ?? 'cmd')
    ? [
        [['handler', 'script'], spec.shell !== undefined || !windows ? programs.handler?.script : undefined],
        [['handler', 'windows', 'script'], programs.windows?.script],
      ]
    : [];
  return candidates.flatMap(([path, script]) => {
    const percent = script === undefined ? null : /%(INPUT_[A-Za-z0-9_]+)(?::[^%]*)?%/i.exec(script);
    if (percent === null) {
      return [];
    }
    const message = `cmd.exe expands "${percent[0]}" before it parses the line, so the value would run as script text; write "!${percent[1] ?? ''}!" (delayed expansion is on), which cmd.exe expands after parsing.`;
    return [{ path, message }];
  });
}

/**
 * The fixed words that run a script. POSIX-style shells get `-c script toolName`, then `args`
 * follow as $1, $2, ..., so values are never script text.
 */
function scriptWords(shell: string, script: string, toolName: string): string[] {
  if (isCmd(shell)) {
    // Verbatim, quoted as Node does for `shell: true`; /s strips exactly these outer quotes.
    // /v:on: values are read as !INPUT_X!, expanded after the line is parsed.
    return [shell, '/d', '/v:on', '/s', '/c', `"${script}"`];
  }
  if (hasNoPositionalArguments(shell)) {
    return [shell, '-NoProfile', '-NonInteractive', '-Command', script];
  }
  return [shell, '-c', script, toolName];
}

/** Throws when `cwd` is not an existing directory (spawn would blame the program). */
async function checkDirectory(cwd: string): Promise<void> {
  const info = await stat(cwd).catch(() => undefined);
  if (info === undefined) {
    throw new Error(`the working directory "${cwd}" does not exist; check the tool's "cwd".`);
  }
  if (!info.isDirectory()) {
    throw new Error(`the working directory "${cwd}" is not a directory.`);
  }
}
