/**
 * Load-time checks of a shell handler that the JSON Schema cannot express. Every problem
 * carries a JSON path relative to the tool object, so the loader can point at line:column.
 * String commands are split here, once; the handler compiles the split programs.
 */
import type { JsonObjectSchema } from '../../types';
import type { HandlerProblem } from '../handler';
import { envReferenceProblem, parseTemplate, placeholderNames, placeholderSpan, wholePlaceholder } from '../../templates';
import { splitCommandLine } from './command-line';
import { argvValueProblem, scriptValueProblem, type ValueNames } from './nested-code';
import { shellKindOf } from './shell-kind';
import type { ProgramKey, ShellHandlerSpec, ShellPlatformOverride, SplitProgram } from './spec';
import { inputEnvName, isArrayProperty } from './values';

type JsonPath = readonly (string | number)[];

const PLATFORM_KEYS = ['windows', 'osx', 'linux'] as const;

/** The problems of a spec, and its programs (base and overrides) with string commands split. */
export interface CheckedShell {
  readonly problems: readonly HandlerProblem[];
  readonly programs: Readonly<Partial<Record<ProgramKey, SplitProgram>>>;
}

/** Every problem in `spec`, in file order, and its split programs. */
export function checkShellSpec(spec: ShellHandlerSpec, schema: JsonObjectSchema): CheckedShell {
  const problems: HandlerProblem[] = [];
  const programs: Partial<Record<ProgramKey, SplitProgram>> = { handler: checkProgram(spec, schema, ['handler'], problems) };
  for (const key of PLATFORM_KEYS) {
    const override = spec[key];
    if (override !== undefined) {
      programs[key] = checkProgram(override, schema, ['handler', key], problems);
    }
  }
  problems.push(...nestedCodeProblems(spec, schema, programs));
  spec.args?.forEach((arg, index) =>
    checkArgvToken(arg, schema, ['handler', 'args', index], problems),
  );
  if (spec.args !== undefined && !usesScript(spec)) {
    problems.push({
      path: ['handler', 'args'],
      message: '"args" are the positional arguments of "script"; with "command", put them in the command.',
    });
  }
  if (spec.stdin !== undefined) {
    checkNames(spec.stdin, schema, ['handler', 'stdin'], problems);
  }
  for (const [name, value] of Object.entries(spec.env ?? {})) {
    checkNames(value, schema, ['handler', 'env', name], problems);
    checkEnvReferences(value, ['handler', 'env', name], problems);
  }
  for (const key of ['cwd', 'shell'] as const) {
    const value = spec[key];
    const [first] = value === undefined ? [] : placeholderNames(value);
    if (value !== undefined && first !== undefined) {
      problems.push({ path: ['handler', key], message: `"${key}" does not take {{...}} placeholders.`, ...spanOf(value, first) });
    }
  }
  return { problems, programs };
}

/**
 * No value may become code of a nested interpreter (nested-code.ts): each program's argv, or its
 * script read as the shell that runs it reads it, with the variables that carry values.
 */
function nestedCodeProblems(spec: ShellHandlerSpec, schema: JsonObjectSchema, programs: Readonly<Partial<Record<ProgramKey, SplitProgram>>>): HandlerProblem[] {
  const fromValues = Object.entries(spec.env ?? {}).flatMap(([name, value]) => {
    const [first] = placeholderNames(value);
    return first === undefined ? [] : [[name, `the value of $${name} (from {{${first}}})`] as const];
  });
  const problems: HandlerProblem[] = [];
  for (const [key, program] of Object.entries(programs) as [ProgramKey, SplitProgram][]) {
    const base = key === 'handler' ? ['handler'] : ['handler', key];
    if (program.command !== undefined) {
      const words = program.command.map((token) => parseTemplate(token).map((part) => (part.kind === 'text' ? { text: part.text } : { value: `the value {{${part.name}}}` })));
      const message = argvValueProblem(words, { variables: new Map(fromValues), positional: false }, placeholderNames(spec.stdin ?? '').length > 0);
      problems.push(...(message === undefined ? [] : [{ path: [...base, 'command'], message: `${capitalized(message)}.` }]));
    }
    if (program.script !== undefined) {
      const inputs = Object.keys(schema.properties ?? {}).map((name) => [inputEnvName(name), `the value {{${name}}} ($${inputEnvName(name)})`] as const);
      const names: ValueNames = { variables: new Map([...inputs, ...fromValues]), positional: (spec.args ?? []).some((arg) => placeholderNames(arg).length > 0) };
      const message = scriptValueProblem([{ text: program.script }], shellKindOf(spec.shell ?? (key === 'windows' ? 'cmd' : 'sh')), names);
      problems.push(...(message === undefined ? [] : [{ path: [...base, 'script'], message: `${capitalized(message)}.` }]));
    }
  }
  return problems;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `${env:NAME}` in an env value or a command must name a variable (templates/env-references.ts). */
function checkEnvReferences(value: string, path: HandlerProblem['path'], problems: HandlerProblem[]): void {
  const message = envReferenceProblem(value);
  if (message !== undefined) {
    problems.push({ path, message });
  }
}

function usesScript(spec: ShellHandlerSpec): boolean {
  return [spec, ...PLATFORM_KEYS.map((key) => spec[key])].some((part) => part?.script !== undefined);
}

/** Exactly one of command/script, then the checks of whichever is there; the program split. */
function checkProgram(
  program: ShellPlatformOverride,
  schema: JsonObjectSchema,
  base: JsonPath,
  problems: HandlerProblem[],
): SplitProgram {
  const hasCommand = program.command !== undefined;
  const hasScript = program.script !== undefined;
  if (hasCommand === hasScript) {
    problems.push({
      path: base,
      message: hasCommand
        ? 'Use either "command" or "script", not both.'
        : 'Set exactly one of "command" (a program and its arguments) or "script" (text run by a shell).',
    });
  }
  const command = program.command === undefined ? undefined : checkCommand(program.command, schema, [...base, 'command'], problems);
  if (program.script !== undefined) {
    checkScript(program.script, schema, [...base, 'script'], problems);
  }
  return { ...(command === undefined ? {} : { command }), ...(program.script === undefined ? {} : { script: program.script }) };
}

/** Checks a command and returns it as argv (undefined when a string cannot be split). */
function checkCommand(
  command: string | readonly string[],
  schema: JsonObjectSchema,
  path: JsonPath,
  problems: HandlerProblem[],
): readonly string[] | undefined {
  if (typeof command !== 'string') {
    if (command.length === 0) {
      problems.push({ path, message: '"command" needs at least the program to run.' });
    }
    command.forEach((token, index) => {
      checkArgvToken(token, schema, [...path, index], problems);
      checkEnvReferences(token, [...path, index], problems);
    });
    return command;
  }
  const split = splitCommandLine(command);
  if (!split.ok) {
    problems.push({ path, message: split.message, ...(split.span === undefined ? {} : { span: split.span }) });
    // Its placeholders are checked all the same: every problem of the line at once.
    checkNames(command, schema, path, problems);
    return undefined;
  }
  if (split.args.length === 0) {
    problems.push({ path, message: '"command" needs at least the program to run.' });
  }
  split.args.forEach((token) => checkArgvToken(token, schema, path, problems, command));
  checkEnvReferences(command, path, problems);
  return split.args;
}

/** `{ span }` of `{{name}}` in `text`, or nothing when it cannot be found there. */
function spanOf(text: string, name: string): Pick<HandlerProblem, 'span'> {
  const span = placeholderSpan(text, name);
  return span === undefined ? {} : { span };
}

/**
 * Placeholders must be declared; array values only fit a token that is the placeholder alone.
 * `source` is the whole string at `path` (a string command), where problems are placed.
 */
function checkArgvToken(
  token: string,
  schema: JsonObjectSchema,
  path: JsonPath,
  problems: HandlerProblem[],
  source = token,
): void {
  checkNames(token, schema, path, problems, source);
  if (wholePlaceholder(token) !== undefined) {
    return;
  }
  for (const part of parseTemplate(token)) {
    if (part.kind === 'placeholder' && isArrayProperty(schema, part.name)) {
      problems.push({
        path,
        message:
          `The array parameter "${part.name}" is used inside the argument "${token}". An array ` +
          `can only be a whole argument ("{{${part.name}}}"), which becomes one argument per element.`,
        ...spanOf(source, part.name),
      });
    }
  }
}

function checkNames(
  template: string,
  schema: JsonObjectSchema,
  path: JsonPath,
  problems: HandlerProblem[],
  source = template,
): void {
  // A lookup, not a list: a steps tool's schema declares two outputs per step (linear per check).
  const properties = schema.properties ?? {};
  for (const name of placeholderNames(template)) {
    if (!Object.hasOwn(properties, name)) {
      const declared = Object.keys(properties);
      const known = declared.length > 0 ? declared.join(', ') : 'none';
      problems.push({
        path,
        message: `Placeholder {{${name}}} names no property of inputSchema.properties (declared: ${known}).`,
        ...spanOf(source, name),
      });
    }
  }
}

function checkScript(script: string, schema: JsonObjectSchema, path: JsonPath, problems: HandlerProblem[]): void {
  const properties = schema.properties ?? {};
  for (const name of placeholderNames(script)) {
    const declared = Object.keys(properties);
    // An undeclared one is first of all undeclared: "$INPUT_X" would be empty at run time.
    const message = Object.hasOwn(properties, name)
      ? `Placeholder {{${name}}} in "script": input values never enter the script text. Read the ` +
        `environment variable $${inputEnvName(name)} instead (quote it: "$${inputEnvName(name)}"), ` +
        `or pass "{{${name}}}" in "args" and use "$1", "$2", ...`
      : `Placeholder {{${name}}} in "script" names no property of inputSchema.properties (declared: ${declared.join(', ') || 'none'}); ` +
        `declare it, then read it as "$${inputEnvName(name)}" (input values never enter the script text).`;
    problems.push({ path, message, ...spanOf(script, name) });
  }
}
