/**
 * The one rule for values and nested interpreters: a value may be an argument, never code. Every
 * command line a tool runs (a plugin's argv or script, an imported task's argv or shell line, an
 * npm script, a just recipe line) is read here, word by word, before anything is served; where a
 * word that some interpreter runs as code holds a value (the script of `sh -c`, everything after
 * `cmd /c`, `powershell -Command`, the code of `node -e`, `python -c`, `perl -e`, `ruby -e`,
 * the words of `eval`, a shell that reads its code from a pipe a value flows into), the answer is
 * why, and the caller does not serve the tool. A literal script given to a nested shell is read
 * again, with its own positional arguments, so the rule holds at any depth.
 */
import { shellBaseName, type ShellKind } from './shell-kind';
import { scriptCommands, type CommandWord, type ScriptCommand, type ValueNames, type WordPart } from './script-words';

export type { CommandWord, ValueNames, WordPart } from './script-words';

/** How an interpreter takes code on its command line. */
type Rule =
  | { readonly kind: 'shell' }
  | { readonly kind: 'everything' }
  | { readonly kind: 'flag'; readonly short: string; readonly long: readonly string[] }
  | { readonly kind: 'program' };

const POSIX_SHELLS = ['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'yash', 'busybox'];

/** The interpreters known by their base name (lower case, no `.exe`, version suffix dropped). */
function ruleOf(name: string): Rule | undefined {
  const base = name.replace(/[0-9.]+$/, '');
  if (POSIX_SHELLS.includes(name)) {
    return { kind: 'shell' };
  }
  if (['cmd', 'powershell', 'pwsh', 'eval', 'iex', 'invoke-expression'].includes(name)) {
    return { kind: 'everything' };
  }
  const flags: Readonly<Record<string, Rule>> = {
    node: { kind: 'flag', short: 'ep', long: ['--eval', '--print'] },
    nodejs: { kind: 'flag', short: 'ep', long: ['--eval', '--print'] },
    bun: { kind: 'flag', short: 'ep', long: ['--eval', '--print'] },
    tsx: { kind: 'flag', short: 'ep', long: ['--eval', '--print'] },
    'ts-node': { kind: 'flag', short: 'ep', long: ['--eval', '--print'] },
    python: { kind: 'flag', short: 'c', long: [] },
    pypy: { kind: 'flag', short: 'c', long: [] },
    perl: { kind: 'flag', short: 'eE', long: [] },
    ruby: { kind: 'flag', short: 'e', long: [] },
    php: { kind: 'flag', short: 'r', long: [] },
    lua: { kind: 'flag', short: 'e', long: [] },
    rscript: { kind: 'flag', short: 'e', long: [] },
    osascript: { kind: 'flag', short: 'e', long: [] },
    awk: { kind: 'program' },
    gawk: { kind: 'program' },
    mawk: { kind: 'program' },
    nawk: { kind: 'program' },
    sed: { kind: 'program' },
  };
  return flags[name] ?? flags[base];
}

/** Why a value would be code somewhere in this argv (a program and its arguments), or undefined. */
export function argvValueProblem(words: readonly CommandWord[], names: ValueNames = NO_VALUES, stdinHasValue = false): string | undefined {
  return commandProblem({ words, fedByValue: stdinHasValue }, names);
}

/** Why a value would be code somewhere in this script (run by a shell of `kind`), or undefined. */
export function scriptValueProblem(script: readonly WordPart[], kind: ShellKind, names: ValueNames): string | undefined {
  for (const command of scriptCommands(script, kind, names)) {
    const problem = commandProblem(command, names);
    if (problem !== undefined) {
      return problem;
    }
  }
  return undefined;
}

const NO_VALUES: ValueNames = { variables: new Map(), positional: false };

const HINT = 'pass it as an argument after the script (e.g. sh -c \'echo "$1"\' sh VALUE) or in an environment variable the script reads in double quotes';

function commandProblem(command: ScriptCommand, names: ValueNames): string | undefined {
  const { words } = command;
  const first = literalOf(words[0] ?? []) ?? '';
  const value = words.slice(1).map(valueIn).find((found) => found !== undefined);
  if (first.includes('${env:') && value !== undefined) {
    return `the program ${first} is read from the environment when it runs, so whether ${value} would be code there cannot be told`;
  }
  for (let index = 0; index < words.length; index++) {
    const name = literalOf(words[index] ?? []);
    const rule = name === undefined ? undefined : ruleOf(shellBaseName(name));
    if (name === undefined || rule === undefined) {
      continue;
    }
    const program = shellBaseName(name);
    const problem = ruleProblem(rule, program, words.slice(index + 1), names, command.fedByValue && index === 0);
    if (problem !== undefined) {
      return problem;
    }
  }
  return undefined;
}

function ruleProblem(rule: Rule, program: string, rest: readonly CommandWord[], names: ValueNames, fedByValue: boolean): string | undefined {
  switch (rule.kind) {
    case 'everything':
      return everythingProblem(program, rest);
    case 'shell':
      return shellProblem(program, rest, names, fedByValue);
    case 'flag':
      return flagProblem(program, rule, rest, fedByValue);
    case 'program':
      return programProblem(program, rest);
  }
}

/** cmd, PowerShell, eval: the whole rest is code (PowerShell's `-File script` excepted: what follows it are arguments). */
function everythingProblem(program: string, rest: readonly CommandWord[]): string | undefined {
  for (let index = 0; index < rest.length; index++) {
    const literal = literalOf(rest[index] ?? []);
    if ((program === 'pwsh' || program === 'powershell') && literal !== undefined && /^-f(ile)?$/i.test(literal)) {
      return undefined;
    }
    const value = valueIn(rest[index] ?? []);
    if (value !== undefined) {
      const what = program === 'cmd' ? 'cmd parses everything after it as a command line' : program === 'pwsh' || program === 'powershell' ? `${program} runs its command words as PowerShell code` : `${program} runs its words as code`;
      return `${value} would be code: ${what}; ${HINT}`;
    }
  }
  return undefined;
}

/** A POSIX shell: with -c its first operand is a script (read again, with its arguments as $1...); without, it may read code from a pipe. */
function shellProblem(program: string, rest: readonly CommandWord[], names: ValueNames, fedByValue: boolean): string | undefined {
  let command = false;
  for (let index = 0; index < rest.length; index++) {
    const word = rest[index] ?? [];
    const literal = literalOf(word);
    if (literal !== undefined && /^(?:[-+][A-Za-z]+|--[a-z-]+(?:=.*)?)$/.test(literal)) {
      command ||= /^-[A-Za-z]*c/.test(literal) || /^--(?:command|init-command)/.test(literal);
      index += /^(?:[-+][oO]|--rcfile|--init-file)$/.test(literal) ? 1 : 0;
      continue;
    }
    if (!command) {
      return fedByValue && literal === '-' ? codeFromPipe(program) : undefined;
    }
    const value = valueIn(word);
    if (value !== undefined) {
      return `${value} would be in the script that "${program} -c" runs, which the shell reads as code; ${HINT}`;
    }
    const positional = rest.slice(index + 1).some((argument) => valueIn(argument) !== undefined);
    return scriptValueProblem([{ text: literal ?? '' }], 'posix', { variables: names.variables, positional });
  }
  return command || !fedByValue ? undefined : codeFromPipe(program);
}

function codeFromPipe(program: string): string {
  return `a value would flow through a pipe into "${program}", which reads it as code; ${HINT}`;
}

/**
 * node -e, python -c, perl -e, ...: the word after a code flag (or glued to it) is code, wherever
 * the flag stands (an option's own argument cannot be told from the script's, so every one is
 * read); with no operand at all, the code comes from stdin.
 */
function flagProblem(program: string, rule: Extract<Rule, { kind: 'flag' }>, rest: readonly CommandWord[], fedByValue: boolean): string | undefined {
  let fromStdin = true;
  for (let index = 0; index < rest.length; index++) {
    const word = rest[index] ?? [];
    const head = word[0];
    const first = head !== undefined && 'text' in head ? head.text : '';
    const short = first.startsWith('--') ? undefined : /^-([A-Za-z]+)/.exec(first)?.[1];
    const codeFlag = rule.long.some((flag) => first === flag || first.startsWith(`${flag}=`)) || [...(short ?? '')].some((letter) => rule.short.includes(letter));
    fromStdin &&= !codeFlag && first.startsWith('-');
    const alone = literalOf(word) !== undefined && /^-[A-Za-z]+$|^--[a-z-]+$/.test(first);
    const value = codeFlag ? (valueIn(word) ?? (alone ? valueIn(rest[index + 1] ?? []) : undefined)) : undefined;
    if (value !== undefined) {
      return `${value} would be in the code that "${program} ${first.replace(/=.*$/, '')}" runs; ${HINT}`;
    }
  }
  return fedByValue && fromStdin ? codeFromPipe(program) : undefined;
}

/** awk, sed: the first operand is the program unless a program file or -e gave it. */
function programProblem(program: string, rest: readonly CommandWord[]): string | undefined {
  for (let index = 0; index < rest.length; index++) {
    const literal = literalOf(rest[index] ?? []);
    if (literal !== undefined && /^-(f|-file)/.test(literal)) {
      return undefined;
    }
    if (literal !== undefined && /^-(e|-expression)$/.test(literal)) {
      const value = valueIn(rest[index + 1] ?? []);
      return value === undefined ? undefined : `${value} would be in the program that "${program}" runs; ${HINT}`;
    }
    if (literal === undefined || !literal.startsWith('-')) {
      const value = valueIn(rest[index] ?? []);
      return value === undefined ? undefined : `${value} would be in the program that "${program}" runs; ${HINT}`;
    }
    index += /^-[vF]$/.test(literal) ? 1 : 0;
  }
  return undefined;
}

/** The word's text when it holds no value. */
function literalOf(word: CommandWord): string | undefined {
  let text = '';
  for (const part of word) {
    if ('value' in part) {
      return undefined;
    }
    text += part.text;
  }
  return text;
}

/** The name of the first value in the word, for the message. */
function valueIn(word: CommandWord): string | undefined {
  const part = word.find((candidate): candidate is { readonly value: string } => 'value' in candidate);
  return part === undefined ? undefined : part.value;
}
