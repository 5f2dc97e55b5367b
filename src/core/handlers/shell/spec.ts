/** `handler` of `type: "shell"` as it is after schema validation (the schema is the authority). */

/** Command overrides for one operating system (as in VS Code's tasks.json). */
export interface ShellPlatformOverride {
  readonly command?: string | readonly string[];
  readonly script?: string;
}

/** Runs a program (`command`) or a script through a shell (`script`); see DESIGN.md. */
export interface ShellHandlerSpec {
  readonly type: 'shell';
  /** argv array, or one string split with shell-like quoting. Exactly one of command/script. */
  readonly command?: string | readonly string[];
  /** Script text run by `shell`; input values reach it only as INPUT_<NAME> env vars and `args`. */
  readonly script?: string;
  /** Program that runs `script` (default `sh` on POSIX, `cmd.exe` on Windows). */
  readonly shell?: string;
  /** Positional arguments for `script` ($1, $2, ...), templates like `command` tokens. */
  readonly args?: readonly string[];
  readonly windows?: ShellPlatformOverride;
  readonly osx?: ShellPlatformOverride;
  readonly linux?: ShellPlatformOverride;
  /** Working directory relative to the workspace folder (default the folder). */
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  /** Milliseconds before the whole process tree is killed (default 30000). */
  readonly timeout?: number;
  /** Exit codes that count as success (default [0]). */
  readonly exitCodes?: readonly number[];
  /** Template written to the program's stdin. */
  readonly stdin?: string;
  /** Cap for stdout and stderr, each, in bytes. */
  readonly maxOutputBytes?: number;
  /** Lets a value start an argument with `-` (off: refused as argument injection). */
  readonly allowLeadingDash?: boolean;
}

/** Where a program is written: the handler itself, or one of its platform overrides. */
export type ProgramKey = 'handler' | 'windows' | 'osx' | 'linux';

/** A program with its string `command` already split into argv (done once, at load). */
export interface SplitProgram {
  readonly command?: readonly string[];
  readonly script?: string;
}
