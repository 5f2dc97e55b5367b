/**
 * What one `shell` or `process` task of tasks.json runs, as a shell handler spec: a process task
 * is an argv (`{{id}}` where an input goes, one argument per value, no shell); a shell task is a
 * command line (shell-words.ts: values are read from INPUT_ variables, never spliced in) run by
 * the task's shell or the handler's default one (`sh`, or `cmd.exe` on Windows).
 */
import * as path from 'node:path';
import type { ShellHandlerSpec } from '../handlers/shell/spec';
import { placeholderNames } from '../templates';
import type { ImportedRun } from './imported-tool';
import { shellKindOf, type ShellKind } from '../handlers/shell/shell-kind';
import { shellText, shellWord, quotesClosed, referenceText, type CommandPart, type Quoting } from './shell-words';
import { argvValueProblem, scriptValueProblem } from '../handlers/shell/nested-code';
import { inputEnvName } from '../handlers/shell/values';
import { resolveToText, resolveVariables, type VariableContext } from './task-variables';

/** A task's command, built: the handler spec, what it runs in words, the inputs it reads. */
export interface TaskCommand {
  readonly handler: ShellHandlerSpec;
  readonly run: ImportedRun;
  readonly inputs: readonly string[];
  /** The shell family of a shell task (cmd.exe cannot take every value in an argument intact). */
  readonly shellKind?: ShellKind;
  /** Workspace files it runs besides tasks.json (an npm task's script), relative to the folder. */
  readonly programFiles?: readonly string[];
  /** What decides what it runs but approval cannot cover. */
  readonly notCovered?: readonly string[];
  /** What it runs as its source writes it, where `run` only names it (an npm task's script: ImportedTool.body). */
  readonly body?: readonly string[];
}

type Reason = { readonly reason: string };
type JsonObject = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One `command` or `args` entry: its text and how VS Code would quote it. */
interface Word {
  readonly text: string;
  readonly quoting: Quoting;
}

function wordOf(value: unknown, what: string): Word | Reason {
  if (typeof value === 'string') {
    return { text: value, quoting: 'auto' };
  }
  if (isObject(value)) {
    const text = Array.isArray(value['value']) ? (value['value'] as unknown[]).join(' ') : value['value'];
    const quoting = value['quoting'] ?? 'auto';
    if (typeof text === 'string' && (quoting === 'escape' || quoting === 'strong' || quoting === 'weak' || quoting === 'auto')) {
      return { text, quoting };
    }
  }
  return { reason: `its ${what} ${JSON.stringify(value)} is neither a string nor { "value": ..., "quoting": "escape" | "strong" | "weak" }` };
}

/** The command of a shell or process task, or why it cannot be served. */
export function taskCommand(task: JsonObject, type: 'shell' | 'process', context: VariableContext): TaskCommand | Reason {
  const command = wordOf(task['command'], 'command');
  if ('reason' in command) {
    return command;
  }
  const args: Word[] = [];
  for (const arg of Array.isArray(task['args']) ? (task['args'] as unknown[]) : []) {
    const word = wordOf(arg, 'argument');
    if ('reason' in word) {
      return word;
    }
    args.push(word);
  }
  const options = isObject(task['options']) ? task['options'] : {};
  const cwd = cwdOf(options['cwd'], context);
  const env = envOf(options['env'], context);
  if ('reason' in cwd) {
    return cwd;
  }
  if ('reason' in env) {
    return env;
  }
  const words: (readonly CommandPart[])[] = [];
  for (const word of [command, ...args]) {
    const resolved = resolveVariables(word.text, context);
    if ('reason' in resolved) {
      return resolved;
    }
    words.push(resolved.parts);
  }
  const inputs = [...new Set([...words.flat(), ...env.parts.flat()].flatMap((part) => ('input' in part ? [part.input] : [])))];
  const common = { ...(cwd.cwd === undefined ? {} : { cwd: cwd.cwd }), ...(env.env === undefined ? {} : { env: env.env }) };
  const built = type === 'process' ? processCommand(words, inputs, common) : shellCommand(words, [command, ...args], inputs, common, isObject(options['shell']) ? options['shell'] : undefined, context);
  if ('reason' in built) {
    return built;
  }
  const problem = nestedCodeProblem(built, words, env.fromInputs);
  return problem === undefined ? built : { reason: `${problem} (a value must stay one literal argument)` };
}

/**
 * Where a value would be code of a nested interpreter (handlers/shell/nested-code.ts, the one
 * rule): in the argv of a process task, or in the line a shell task runs, read as its shell reads it.
 */
function nestedCodeProblem(built: TaskCommand, words: readonly (readonly CommandPart[])[], fromInputs: ReadonlyMap<string, string>): string | undefined {
  if (built.run.kind === 'process') {
    const argv = words.map((parts) => parts.map((part) => ('input' in part ? { value: `the value of ${referenceText(part)}` } : { text: 'text' in part ? part.text : referenceText(part) })));
    return argvValueProblem(argv, { variables: fromInputs, positional: false });
  }
  const inputs = built.inputs.map((input) => [inputEnvName(input), `the value of \${input:${input}}`] as const);
  const commandLine = built.run.kind === 'shell' ? built.run.commandLine : '';
  return scriptValueProblem([{ text: commandLine }], built.shellKind ?? 'posix', { variables: new Map([...inputs, ...fromInputs]), positional: false });
}

function processCommand(words: readonly (readonly CommandPart[])[], inputs: readonly string[], common: Pick<ShellHandlerSpec, 'cwd' | 'env'>): TaskCommand | Reason {
  const argv: string[] = [];
  for (const parts of words) {
    const token = templateOf(parts);
    if (typeof token !== 'string') {
      return token;
    }
    argv.push(token);
  }
  const handler: ShellHandlerSpec = { type: 'shell', command: argv, ...common };
  return { handler, run: { kind: 'process', argv, ...(common.cwd === undefined ? {} : { cwd: common.cwd }) }, inputs };
}

function shellCommand(
  words: readonly (readonly CommandPart[])[],
  declared: readonly Word[],
  inputs: readonly string[],
  common: Pick<ShellHandlerSpec, 'cwd' | 'env'>,
  shellOptions: JsonObject | undefined,
  context: VariableContext,
): TaskCommand | Reason {
  const shell = shellOf(shellOptions, context);
  if ('reason' in shell) {
    return shell;
  }
  const kind = shellKindOf(shell.executable ?? (context.platform.windows ? 'cmd.exe' : 'sh'));
  const pieces: string[] = [];
  for (const [index, parts] of words.entries()) {
    // A command alone is a command line, as the author wrote it; with args, each is one word.
    const piece = words.length === 1 ? shellText(parts, kind) : shellWord(parts, declared[index]?.quoting ?? 'auto', kind);
    if (typeof piece !== 'string') {
      return piece;
    }
    pieces.push(piece);
  }
  const commandLine = pieces.join(' ');
  if (inputs.length > 0 && !quotesClosed(commandLine, kind)) {
    return { reason: 'its command line leaves a quote open, so where an input stands in it cannot be told' };
  }
  const handler: ShellHandlerSpec = { type: 'shell', script: commandLine, ...(shell.executable === undefined ? {} : { shell: shell.executable }), ...common };
  const executable = shell.executable ?? (context.platform.windows ? 'cmd.exe' : 'sh');
  const shellArgv = kind === 'cmd' ? [executable, '/d', '/v:on', '/s', '/c'] : kind === 'pwsh' ? [executable, '-NoProfile', '-NonInteractive', '-Command'] : [executable, '-c'];
  return { handler, run: { kind: 'shell', shell: shellArgv, commandLine, ...(common.cwd === undefined ? {} : { cwd: common.cwd }) }, inputs, shellKind: kind };
}

/**
 * An argv token: the text with `{{id}}` for each input and `${env:NAME}` for each variable (the
 * shell handler reads it when the task runs); literal text that reads as either cannot be told apart.
 */
function templateOf(parts: readonly CommandPart[]): string | Reason {
  let token = '';
  for (const part of parts) {
    if ('input' in part) {
      token += `{{${part.input}}}`;
    } else if ('env' in part) {
      token += `\${env:${part.env}}`;
    } else if (placeholderNames(part.text).length > 0 || part.text.includes('${')) {
      return { reason: `its text ${JSON.stringify(part.text)} contains "{{...}}" or "\${", which the tool would read as a parameter or a variable` };
    } else {
      token += part.text;
    }
  }
  return token;
}

/** The flags each shell family runs a command line with; the handler adds them itself. */
const ACCEPTED_SHELL_ARGS: Readonly<Record<ShellKind, readonly string[]>> = {
  posix: ['-c'],
  cmd: ['/d', '/s', '/c'],
  pwsh: ['-NoProfile', '-NonInteractive', '-Command', '-c'],
};

function shellOf(options: JsonObject | undefined, context: VariableContext): { readonly executable?: string } | Reason {
  if (options === undefined || options['executable'] === undefined) {
    return {};
  }
  if (typeof options['executable'] !== 'string') {
    return { reason: 'its options.shell.executable is not a string' };
  }
  const executable = resolveToText(options['executable'], context, 'shell');
  if ('reason' in executable) {
    return executable;
  }
  const args = options['args'];
  const accepted = ACCEPTED_SHELL_ARGS[shellKindOf(executable.text)];
  if (args !== undefined && (!Array.isArray(args) || (args as unknown[]).some((arg) => typeof arg !== 'string' || !accepted.some((flag) => flag.toLowerCase() === arg.toLowerCase())))) {
    return { reason: `its options.shell.args ${JSON.stringify(args)} are not only ${accepted.join(', ')}: the tool runs the shell with those itself` };
  }
  return { executable: executable.text };
}

function cwdOf(value: unknown, context: VariableContext): { readonly cwd?: string } | Reason {
  if (value === undefined) {
    return {};
  }
  if (typeof value !== 'string') {
    return { reason: 'its options.cwd is not a string' };
  }
  const resolved = resolveToText(value, context, 'working directory');
  if ('reason' in resolved) {
    return resolved;
  }
  const rules = context.platform.path;
  const relative = rules.relative(context.folder, rules.resolve(context.folder, resolved.text));
  if (relative === '..' || relative.startsWith(`..${rules.sep}`) || rules.isAbsolute(relative)) {
    return { reason: `its working directory ${JSON.stringify(resolved.text)} is outside the workspace folder` };
  }
  return relative === '' ? {} : { cwd: relative.split(rules.sep).join(path.posix.sep) };
}

/** options.env as handler env templates, the parts of each, and which variables carry an input's value. */
type TaskEnv = { readonly env?: Readonly<Record<string, string>>; readonly parts: readonly (readonly CommandPart[])[]; readonly fromInputs: ReadonlyMap<string, string> };

function envOf(value: unknown, context: VariableContext): TaskEnv | Reason {
  if (value === undefined) {
    return { parts: [], fromInputs: new Map() };
  }
  if (!isObject(value)) {
    return { reason: 'its options.env is not an object' };
  }
  const env: Record<string, string> = {};
  const all: (readonly CommandPart[])[] = [];
  const fromInputs = new Map<string, string>();
  for (const [name, text] of Object.entries(value)) {
    if (typeof text !== 'string') {
      return { reason: `its options.env.${name} is not a string` };
    }
    const resolved = resolveVariables(text, context);
    if ('reason' in resolved) {
      return resolved;
    }
    const template = templateOf(resolved.parts);
    if (typeof template !== 'string') {
      return template;
    }
    env[name] = template;
    all.push(resolved.parts);
    const input = resolved.parts.find((part) => 'input' in part);
    if (input !== undefined && 'input' in input) {
      fromInputs.set(name, `the value of \${input:${input.input}} (in $${name})`);
    }
  }
  return { env, parts: all, fromInputs };
}
