/**
 * Which words of a command name a file that decides what runs: the program itself when it is
 * written as a path (`./scripts/deploy.sh`; a bare name is looked up on PATH, not in the
 * workspace), and the script a known interpreter is handed (`bash scripts/x.sh`,
 * `node --require ./setup.js x.js`, `python3 -u x.py`, `pwsh -File x.ps1`, `deno run x.ts`),
 * with the modules it preloads. Approval covers those files (plugins/program-files.ts). Pure:
 * words in, paths as written out. A word with a `{{placeholder}}` or a `$` expansion is chosen
 * when the tool runs and names no file here.
 */
import * as path from 'node:path';

/** How an interpreter's options read: inline code (no script file follows), preloaded modules, options with a value. */
interface Family {
  readonly inline: readonly string[];
  readonly preload: readonly string[];
  readonly withValue: readonly string[];
  /** The option that names the script file itself (PowerShell's -File, php's -f). */
  readonly file?: string;
  /** A subcommand that comes before the script (`deno run x.ts`, `bun run x.ts`). */
  readonly subcommand?: string;
  /** Options are matched without regard to case (PowerShell). */
  readonly anyCase?: boolean;
}

const SHELL: Family = { inline: ['-c', '-s', '-'], preload: ['--rcfile', '--init-file'], withValue: ['-o', '-O', '+o', '+O'] };
const JS: Family = {
  inline: ['-e', '--eval', '-p', '--print', '-c', '--check', '-'],
  preload: ['-r', '--require', '--import', '--loader', '--experimental-loader', '--preload'],
  withValue: ['-C', '--conditions', '--env-file', '--tsconfig', '--cwd', '--config', '--title'],
  subcommand: 'run',
};
const PYTHON: Family = { inline: ['-c', '-m', '-'], preload: [], withValue: ['-W', '-X', '--check-hash-based-pycs'] };
const POWERSHELL: Family = {
  inline: ['-command', '-c', '-encodedcommand', '-ec', '-e'],
  preload: [],
  withValue: ['-executionpolicy', '-ep', '-configurationname', '-workingdirectory', '-wd'],
  file: '-file',
  anyCase: true,
};

/** Interpreters whose first non-option argument is a script file (names without `.exe`, lower case). */
const INTERPRETERS: ReadonlyMap<string, Family> = new Map([
  ...['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish'].map((name) => [name, SHELL] as const),
  ...['node', 'nodejs', 'bun', 'tsx', 'ts-node', 'deno'].map((name) => [name, JS] as const),
  ...['python', 'python3', 'pypy', 'pypy3'].map((name) => [name, PYTHON] as const),
  ['ruby', { inline: ['-e', '-'], preload: ['-r'], withValue: ['-I', '-C'] }],
  ['perl', { inline: ['-e', '-E', '-'], preload: [], withValue: ['-I', '-M', '-m'] }],
  ['php', { inline: ['-r', '-'], preload: [], withValue: ['-c', '-d'], file: '-f' }],
  ['lua', { inline: ['-e', '-'], preload: ['-l'], withValue: [] }],
  ['rscript', { inline: ['-e', '-'], preload: [], withValue: [] }],
  ['pwsh', POWERSHELL],
  ['powershell', POWERSHELL],
]);

/** Words that stand before the command itself in a simple command. */
const PREFIXES = new Set(['exec', 'command', 'time', 'nohup', 'then', 'do', 'else', 'elif', 'if', 'while', 'until', '!', '{']);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** A word that no value chooses. */
function isLiteral(word: string): boolean {
  return word !== '' && !word.includes('{{') && !word.includes('$') && !word.includes('`') && !word.includes('%');
}

/** The program written as a path (`./x`, `bin/x`, `C:\x`), not a name PATH finds. */
function isPathLike(word: string): boolean {
  return word.includes('/') || word.includes('\\');
}

/** `node`, `python3.12`, `C:\Python\python.exe` → how its options read, else undefined. */
function interpreterOf(word: string): Family | undefined {
  const base = word.split(/[\\/]/).pop()?.toLowerCase().replace(/\.exe$/, '') ?? '';
  return INTERPRETERS.get(/^python\d+(\.\d+)?$/.test(base) ? 'python3' : base);
}

/**
 * The files one simple command's words name (paths as written, relative to its working
 * directory): the program when it is a path; after a known interpreter, each preloaded module
 * and the first non-option word.
 */
export function programFileWords(words: readonly string[]): string[] {
  let start = 0;
  while (start < words.length && (PREFIXES.has(words[start] ?? '') || ASSIGNMENT.test(words[start] ?? ''))) {
    start++;
  }
  if (words[start] === 'env') {
    start++;
    while (start < words.length && (ASSIGNMENT.test(words[start] ?? '') || (words[start] ?? '').startsWith('-'))) {
      start++;
    }
  }
  const program = words[start];
  if (program === undefined || !isLiteral(program)) {
    return [];
  }
  const found = isPathLike(program) ? [program] : [];
  const family = interpreterOf(program);
  return family === undefined ? found : [...found, ...scriptWordsAfter(family, words.slice(start + 1))];
}

/** The preloads and script file among an interpreter's arguments. */
function scriptWordsAfter(family: Family, args: readonly string[]): string[] {
  const found: string[] = [];
  const take = (value: string | undefined): void => {
    if (value !== undefined && isLiteral(value)) {
      found.push(value);
    }
  };
  let index = family.subcommand !== undefined && args[0] === family.subcommand ? 1 : 0;
  for (; index < args.length; index++) {
    const word = args[index] ?? '';
    const equals = word.startsWith('--') ? word.indexOf('=') : -1;
    const written = equals < 0 ? word : word.slice(0, equals);
    const option = family.anyCase === true ? written.toLowerCase() : written;
    const inlineValue = equals < 0 ? undefined : word.slice(equals + 1);
    if (word === '--') {
      index++;
      break;
    }
    if (family.inline.includes(option)) {
      return found;
    }
    if (option === family.file) {
      take(args[index + 1]);
      return found;
    }
    if (family.preload.includes(option)) {
      take(inlineValue ?? args[++index]);
    } else if (family.withValue.includes(option) && inlineValue === undefined) {
      index++;
    } else if (!word.startsWith('-') && !(family === SHELL && word.startsWith('+'))) {
      break;
    }
  }
  take(args[index]);
  return found;
}

/** One simple command of a script: its words, and the directory (`cd` before it) they are relative to. */
export interface ScriptCommand {
  readonly words: readonly string[];
  readonly dir: string;
}

/**
 * The simple commands of a shell script, best effort: split at unquoted `;`, `&`, `|`, newlines
 * and parentheses, quotes removed, comments skipped. A word with an expansion keeps its `$` (and
 * so names no file). A literal `cd <dir>` makes later commands relative to that directory.
 */
export function scriptCommands(script: string): ScriptCommand[] {
  const lexer = new ScriptLexer();
  for (let index = 0; index < script.length; index++) {
    index = lexer.step(script, index);
  }
  lexer.endCommand();
  return lexer.commands;
}

/** The state of scriptCommands' one pass over the text. */
class ScriptLexer {
  readonly commands: ScriptCommand[] = [];
  private dir = '.';
  private words: string[] = [];
  private word: string | undefined;
  private quote: string | undefined;

  /** Consumes the character at `index` (and what it escapes); returns the last index consumed. */
  step(script: string, index: number): number {
    const char = script[index] ?? '';
    if (this.quote !== undefined) {
      if (char === this.quote) {
        this.quote = undefined;
        return index;
      }
      const escaped = char === '\\' && this.quote === '"';
      this.word = (this.word ?? '') + (escaped ? (script[index + 1] ?? '') : char);
      return escaped ? index + 1 : index;
    }
    if (char === '"' || char === "'") {
      this.quote = char;
      this.word ??= '';
    } else if (char === '\\') {
      this.word = (this.word ?? '') + (script[index + 1] ?? '');
      return index + 1;
    } else if (char === '#' && this.word === undefined) {
      const end = script.indexOf('\n', index);
      return end < 0 ? script.length : end - 1;
    } else if (';&|\n\r()'.includes(char)) {
      this.endCommand();
    } else if (char === ' ' || char === '\t') {
      this.endWord();
    } else {
      this.word = (this.word ?? '') + char;
    }
    return index;
  }

  endCommand(): void {
    this.endWord();
    const [first, second] = this.words;
    if (first === 'cd' && this.words.length === 2 && second !== undefined && isLiteral(second)) {
      this.dir = second.startsWith('/') || /^[A-Za-z]:[\\/]/.test(second) ? second : `${this.dir}/${second}`;
    } else if (this.words.length > 0) {
      this.commands.push({ words: this.words, dir: this.dir });
    }
    this.words = [];
  }

  private endWord(): void {
    if (this.word !== undefined) {
      this.words.push(this.word);
    }
    this.word = undefined;
  }
}

/**
 * Programs that read what they run from files in their working directory and the directories
 * above it: a package manager (package.json's scripts, and its configuration, which can change
 * the shell that runs them: `.npmrc` script-shell), just (the justfile it finds upward), make
 * (the makefile in its working directory only).
 */
interface RunnerFiles {
  readonly files: readonly string[];
  readonly upward: boolean;
}
const MANAGER: RunnerFiles = { files: ['package.json', '.npmrc', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs', 'bunfig.toml'], upward: true };
const MAKE: RunnerFiles = { files: ['GNUmakefile', 'makefile', 'Makefile'], upward: false };
const RUNNER_FILES: ReadonlyMap<string, RunnerFiles> = new Map<string, RunnerFiles>([
  ...['npm', 'npx', 'pnpm', 'pnpx', 'yarn', 'bun', 'bunx'].map((name): [string, RunnerFiles] => [name, MANAGER]),
  ['just', { files: ['justfile', 'Justfile', '.justfile'], upward: true }],
  ['make', MAKE],
  ['gmake', MAKE],
]);

/** The files the command's program reads what it runs from, relative to its working directory (`..` for those above). */
function runnerFileWords(words: readonly string[], depth: number): string[] {
  const program = words.find((word) => !PREFIXES.has(word) && !ASSIGNMENT.test(word) && word !== 'env');
  const base = program?.split(/[\\/]/).pop()?.toLowerCase().replace(/\.(exe|cmd|bat|ps1)$/, '') ?? '';
  const runner = RUNNER_FILES.get(base);
  if (runner === undefined) {
    return [];
  }
  const levels = runner.upward ? depth + 1 : 1;
  return Array.from({ length: levels }, (_, level) => runner.files.map((file) => [...Array<string>(level).fill('..'), file].join('/'))).flat();
}

/**
 * The workspace files a shell handler's program runs (the argv of `command`; for a `script`,
 * its shell and each simple command of the script) and the files a runner among them reads its
 * tasks and configuration from (RUNNER_FILES), relative to the folder with `/`, each once.
 * Paths are taken from `cwd` (absolute); those outside the folder are left out: approval does
 * not cover programs outside the workspace.
 */
export function workspaceProgramFiles(program: { readonly command?: readonly string[]; readonly script?: string; readonly shell: string }, folder: string, cwd: string): string[] {
  const commands: ScriptCommand[] = program.script === undefined ? [{ words: program.command ?? [], dir: '.' }] : [{ words: [program.shell], dir: '.' }, ...scriptCommands(program.script)];
  const depthOf = (dir: string): number => path.relative(folder, path.resolve(cwd, dir)).split(path.sep).filter((part) => part !== '' && part !== '.').length;
  const names = commands.flatMap((command) =>
    [...programFileWords(command.words), ...runnerFileWords(command.words, depthOf(command.dir))].flatMap((word) => {
      const relative = path.relative(folder, path.resolve(cwd, command.dir, word));
      return relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative) ? [] : [relative.split(path.sep).join('/')];
    }),
  );
  return [...new Set(names)];
}
