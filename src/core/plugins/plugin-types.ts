/**
 * The plugin file format as it is after schema validation (schemas/tool-plugin.schema.json is
 * the authority; these types mirror it). Handlers receive these specs.
 */
import type { JsonObjectSchema, ToolTag } from '../types';

/** Command overrides for one operating system (as in VS Code's tasks.json). */
export interface ShellPlatformOverride {
  readonly command?: string | readonly string[];
  readonly script?: string;
}

/** `handler` of `type: "shell"`: runs a program or a script (see DESIGN.md). */
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

/** `handler` of `type: "http"`: one request per call. */
export interface HttpHandlerSpec {
  readonly type: 'http';
  /** URL template; `{{x}}` values are percent-encoded. */
  readonly url: string;
  readonly method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  /** Header values may use `${env:NAME}`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Milliseconds (default 10000). */
  readonly timeout?: number;
  /** Cap on the response body in bytes. */
  readonly maxResponseBytes?: number;
}

/** `handler` of `type: "file-read"`: reads text files under a base path. */
export interface FileReadHandlerSpec {
  readonly type: 'file-read';
  /** Base directory relative to the workspace folder (default the folder). */
  readonly basePath?: string;
  /** Largest file served, in bytes (default 1 MiB). */
  readonly maxSize?: number;
}

/** Any handler, told apart by `type`. */
export type HandlerSpec = ShellHandlerSpec | HttpHandlerSpec | FileReadHandlerSpec;

/** One entry of `tools`. */
export interface PluginToolSpec {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema?: JsonObjectSchema;
  readonly tags?: readonly ToolTag[];
  readonly handler: HandlerSpec;
}

/** A whole plugin file. */
export interface PluginFileSpec {
  readonly $schema?: string;
  readonly name?: string;
  readonly version?: string;
  readonly description?: string;
  readonly tools: readonly PluginToolSpec[];
}
