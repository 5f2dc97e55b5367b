/**
 * The engine's vocabulary: what a tool is, where it came from, what running it gives back.
 * Plain data and interfaces only; no behaviour, no imports of Node or VS Code.
 */
import type { OutputResource, OutputStore } from './output/output-store';
import type { Sandbox } from './sandbox/sandbox';

/** What a tool does to the world; drives confirmation in VS Code and MCP annotations. */
export type ToolTag = 'read' | 'write' | 'execute' | 'network';

/**
 * Whether a tool runs without asking: only when every tag is `read`. An untagged tool, or one
 * tagged `read` and `write`, is confirmed; every door (lm tools, MCP hints, Run Tool) uses this.
 */
export function isReadOnly(tags: readonly ToolTag[]): boolean {
  return tags.length > 0 && tags.every((tag) => tag === 'read');
}

/**
 * A tool's own widening of its OS sandbox, written in its plugin file (a tool's `sandbox`, an
 * import entry's `sandbox` or `taskSandbox`) and covered by its approval like any other field.
 * Nothing widens a policy at call time. It lives here, the lowest floor that uses it (the
 * handlers' HandlerTarget, ToolDefinition); sandbox/policy.ts turns it into a policy.
 */
export interface DeclaredSandbox {
  /**
   * The only folders or files (relative to the workspace folder, inside it) the tool may write
   * besides its temporary folder. Declaring them makes the tool a `write` tool whose writes are
   * limited to these paths.
   */
  readonly write?: readonly string[];
  /**
   * Paths the always-hidden set would hide that this tool must read (`~/.npmrc` for a publish
   * tool): absolute, or starting with `~/`. This tool's own state is never readable.
   */
  readonly read?: readonly string[];
  /**
   * The only hosts the tool may reach (`registry.npmjs.org`, `*.github.com`). Declaring them makes
   * the tool a `network` tool whose network is limited to these hosts.
   */
  readonly hosts?: readonly string[];
}

/**
 * What confines a plugin tool's work, for what a person is shown (sandbox/tool-sandbox-text.ts).
 * `os`: the processes it starts run in the OS sandbox built from `tags` and `declared`
 * (a shell handler, an imported task, a steps tool with shell steps; `also` says what confines
 * its other steps). `own`: not the OS sandbox; `says` what does (a code tool: Node's permission
 * model; an http or file-read tool starts no process). A built-in tool has none: it is code of
 * Workspace Tools itself.
 */
export type ToolSandbox =
  | {
      readonly kind: 'os';
      readonly folder: string;
      /** The tags its policy is built from (sandbox/policy.ts policyTags): declared (else `execute`) with what `declared` implies. */
      readonly tags: readonly ToolTag[];
      readonly declared?: DeclaredSandbox;
      readonly also?: readonly string[];
    }
  | { readonly kind: 'own'; readonly says: readonly string[] };

/** A JSON Schema for a tool's input: always an object schema. */
export interface JsonObjectSchema {
  readonly type: 'object';
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: JsonSchema;
  readonly [keyword: string]: unknown;
}

/** Any JSON Schema fragment (kept loose: ajv is the judge of validity). */
export type JsonSchema = { readonly [keyword: string]: unknown } | boolean;

/** Tool input after validation: the JSON object the model sent, defaults applied. */
export type ToolInput = Record<string, unknown>;

/** What a tool call gives back. `isError` results carry text that tells the model what to fix. */
export interface ToolResult {
  readonly text: string;
  readonly isError: boolean;
  /**
   * The same answer as data, valid against the tool's `outputSchema` (MCP `structuredContent`);
   * `text` stays complete for clients that read only text.
   */
  readonly structured?: Readonly<Record<string, unknown>>;
  /** Whole outputs too large for the answer, kept for resources/read (see output-store.ts). */
  readonly resources?: readonly OutputResource[];
  /** How what ran ended, when the tool knows: steps and tests read it; clients see only `text`. */
  readonly details?: RunDetails;
  /**
   * The answer as content parts, when it is more than text: an image, audio, an embedded
   * resource, a link (MCP content). A door that passes parts on (MCP) sends these instead of
   * `text`; `text` is then the same answer for readers of text alone (the CLI, the history, steps,
   * tests, a door without images): text parts as they are, the others described
   * (`[image/png, 12.3 KB]`, content/parts.ts textOfParts), never their base64.
   */
  readonly content?: readonly ContentPart[];
}

/** One part of a rich answer, as MCP content has it. `data` and `blob` are base64. */
export type ContentPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly data: string; readonly mimeType: string }
  | { readonly type: 'audio'; readonly data: string; readonly mimeType: string }
  | { readonly type: 'resource'; readonly resource: EmbeddedResource }
  | {
      readonly type: 'resource_link';
      readonly uri: string;
      readonly name: string;
      readonly mimeType?: string;
      readonly description?: string;
    };

/** A resource's contents inside an answer: text, or base64 bytes (`blob`). */
export type EmbeddedResource =
  | { readonly uri: string; readonly mimeType?: string; readonly text: string }
  | { readonly uri: string; readonly mimeType?: string; readonly blob: string };

/**
 * A question for the user (MCP form elicitation): a message and a flat object schema whose
 * properties are strings, numbers, integers, booleans or lists of enum strings.
 */
export interface ElicitRequest {
  readonly message: string;
  readonly requestedSchema: JsonObjectSchema;
}

/** What a value the user gave may be (MCP elicitation content). */
export type ElicitValue = string | number | boolean | readonly string[];

/** The user's answer: accepted (with the values), declined, or dismissed. */
export interface ElicitAnswer {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: Readonly<Record<string, ElicitValue>>;
}

/**
 * Asks the user through the door's client; rejects when the client cannot ask (the door's
 * reason, `this client cannot ask the user: ...`, see tool-errors.ts cannotAskError).
 */
export type AskUser = (request: ElicitRequest, signal: AbortSignal) => Promise<ElicitAnswer>;

/**
 * A value checked against a schema by the registry's one validator: the value with the schema's
 * defaults applied, or what is wrong, one problem a line (`root` names the whole value in them).
 */
export type SchemaCheck = (schema: JsonObjectSchema, value: unknown, root?: string) => { readonly ok: true; readonly input: ToolInput } | { readonly ok: false; readonly message: string };

/** The parts of a run that later steps and tests look at. */
export interface RunDetails {
  /** What ran, for the call history and confirmations: the expanded argv, method and URL, or path. */
  readonly ran?: string;
  /** A program's exit code (shell), when it exited. */
  readonly exitCode?: number;
  /** The HTTP status of an http tool's response. */
  readonly httpStatus?: number;
  /** The program's standard output alone (an http tool: the response body), without notes. */
  readonly stdout?: string;
  /** Whether a shell or imported tool's program ran in the OS sandbox, and under which policy (the call history keeps it). */
  readonly sandbox?: RunSandbox;
}

/**
 * How a program ran: sandboxed, with its policy in words (sandbox/policy.ts describePolicy), or
 * not, and why (the setting is `off`, or the sandbox is unavailable under `preferred`).
 */
export type RunSandbox = { readonly sandboxed: true; readonly policy: readonly string[] } | { readonly sandboxed: false; readonly reason: string };

/** Where a tool was defined. */
export type ToolSource =
  | { readonly kind: 'builtin' }
  | {
      readonly kind: 'plugin';
      /** Collection name (the file's `name`, default the file's base name). */
      readonly pluginName: string;
      /** Absolute path of the plugin file. */
      readonly file: string;
      /** 1-based position of the tool's object in the file, for "Open Definition". */
      readonly line: number;
      readonly column: number;
      /** An imported tool (the file's `import` section): where its task is declared (absolute file, 1-based). */
      readonly declared?: { readonly file: string; readonly line: number; readonly column: number };
    };

/** A workspace folder as the engine sees it. */
export interface WorkspaceFolder {
  /** Display name (VS Code's folder name, default the directory's base name). */
  readonly name: string;
  /** Absolute file-system path. */
  readonly path: string;
}

/** Caps applied to everything that runs. */
export interface ExecutionLimits {
  /** Default timeout for shell handlers and git, in milliseconds. */
  readonly timeoutMs: number;
  /** Default timeout for http handlers, in milliseconds. */
  readonly httpTimeoutMs: number;
  /** Cap on captured stdout and on stderr, each, in bytes. */
  readonly maxOutputBytes: number;
  /** Cap on an http response body, in bytes. */
  readonly maxResponseBytes: number;
  /** Cap on one string input value, in characters. */
  readonly maxValueLength: number;
  /**
   * Past this many bytes of stdout, a door that keeps outputs (the MCP server) answers with the
   * head and the tail and links the whole output as a resource.
   */
  readonly largeOutputBytes: number;
  /**
   * Most nested calls (callTool, `tool` steps, aliases) one top-level call runs at once; more wait
   * their turn (see registry/call-budget.ts).
   */
  readonly nestedConcurrency: number;
}

/** The limits when the settings or the command line set none. */
export const DEFAULT_LIMITS: ExecutionLimits = {
  timeoutMs: 30_000,
  httpTimeoutMs: 10_000,
  maxOutputBytes: 1024 * 1024,
  maxResponseBytes: 1024 * 1024,
  maxValueLength: 8192,
  largeOutputBytes: 100 * 1024,
  nestedConcurrency: 8,
};

/** Something that can be released; matches VS Code's Disposable shape structurally. */
export interface Disposable {
  dispose(): void;
}

/** Where log lines go: VS Code's LogOutputChannel, or stderr in the standalone server. */
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Everything a running tool may use; passed in, never reached for globally. */
export interface ToolRunContext {
  /** Workspace folders; the first is the default. Never empty for tools that need one. */
  readonly folders: readonly WorkspaceFolder[];
  /** Aborted when the call is cancelled (VS Code token, MCP cancellation). */
  readonly signal: AbortSignal;
  readonly limits: ExecutionLimits;
  readonly logger: Logger;
  /** Environment for child processes and `${env:NAME}` lookups. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Says what the tool is doing now (its latest output line, the step it is on); the door shows
   * it (MCP progress notifications, a VS Code progress notification). May be called often: doors
   * throttle. Never call it after the tool has returned.
   */
  readonly progress?: (message: string) => void;
  /**
   * Calls another served tool through the registry, with every rule a call from a client has
   * (approval, disabled state, input validation) plus the nested-call rules: the callee may do
   * only what the caller's tags allow (registry/nested-call-rules.ts), and the top-level call's
   * budget bounds how many run at once, how many in all and how much they return
   * (registry/call-budget.ts). `signal` (a step's or its tool's time limit) stops the nested call
   * as well as the call's own cancel does.
   */
  readonly callTool?: (name: string, input: unknown, signal?: AbortSignal) => Promise<ToolResult>;
  /** Where a large output is kept whole; absent where the door cannot serve it. */
  readonly outputs?: OutputStore;
  /**
   * Asks the user a question through the door (MCP elicitation); rejects with the door's reason
   * when it cannot (a client without the elicitation capability, a command line without a
   * terminal). Always set by the registry; a tool that asks must be ready for the rejection.
   */
  readonly ask?: AskUser;
  /**
   * Checks a value against a schema with the registry's validator, as a call's input is checked
   * before it runs (a confirm form's answer merged into the input is checked again with it).
   */
  readonly checkInput?: SchemaCheck;
  /**
   * The OS sandbox a shell or imported tool's programs run in (core/sandbox). Absent: they run
   * as they are (a host that does not sandbox, tests of other things).
   */
  readonly sandbox?: Sandbox;
  /**
   * The timeout of this run in milliseconds, over the tool's own `timeout` and the limits (a tool
   * run as an MCP task with a `task.timeout`). Absent: the tool's own.
   */
  readonly timeoutMs?: number;
}

/** How a door calls a tool: cancellation, and where progress goes. */
export interface CallOptions {
  readonly signal: AbortSignal;
  /** Where large outputs are kept whole (the MCP door serves them as resources). */
  readonly outputs?: OutputStore;
  /** Which door the call came through, for the call history (default "cli"). */
  readonly door?: 'mcp' | 'lm' | 'run-tool' | 'test' | 'cli' | 'bridge';
  /**
   * Who called, when the door alone does not say: an outside agent's server calling through a
   * VS Code window's editor bridge ("workspace-tools-mcp 0.1.0 (serve), pid 4242"). Recorded.
   */
  readonly caller?: string;
  readonly progress?: (message: string) => void;
  /**
   * How this door asks the user (code tools' `elicit`, a tool's `confirm`). Absent: the door
   * cannot, and asking fails with "this client cannot ask the user".
   */
  readonly ask?: AskUser;
  /** The call runs as an MCP task: the tool's `task.timeout` replaces its own timeout. */
  readonly asTask?: boolean;
}

/**
 * Whether a tool may run as an MCP task (issue 39): `forbidden`, `optional` (the client chooses;
 * the default), `preferred` (optional, and on protocol 2026-07-28, where the server chooses, it
 * runs as a task whenever the client supports tasks), `required` (only as a task).
 */
export type TaskSupport = 'forbidden' | 'optional' | 'preferred' | 'required';

/** A tool's plugin `task` block. */
export interface ToolTaskSettings {
  readonly support: TaskSupport;
  /** The timeout of a run as a task, in milliseconds, instead of the tool's own. */
  readonly timeoutMs?: number;
}

/**
 * A tool ready to list and call: built-in or from a plugin file.
 * `run` receives input that has already been validated against `inputSchema`.
 */
export interface ToolDefinition {
  readonly name: string;
  /** Short human title (tree view, MCP `title`). */
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonObjectSchema;
  /** The schema of `structured` in this tool's successful results, when it returns data. */
  readonly outputSchema?: JsonObjectSchema;
  /** What a call with this input would run (see CompiledHandler.preview); plugin handler tools only. */
  readonly preview?: (input: ToolInput, limits: { readonly maxValueLength: number }) => readonly string[];
  /**
   * "json": the registry parses the result's `details.stdout` (a program's stdout, an HTTP body)
   * into `structured`, checked against outputSchema when there is one (plugin `output.format`).
   */
  readonly outputFormat?: 'json';
  readonly tags: readonly ToolTag[];
  readonly source: ToolSource;
  /** Plugin tools: what confines what it runs (the OS sandbox from its tags, or what else); none for a built-in. */
  readonly sandbox?: ToolSandbox;
  /** One line that says what runs: the exact command, URL or base path. */
  readonly handlerSummary: string;
  /** Plugin tools: everything the tool can run, for the person who approves its file. */
  readonly approvalLines?: readonly string[];
  /**
   * Plugin tools: the workspace files it runs besides its file's text (CompiledHandler.programFiles
   * of its handler or steps), relative to its folder; the file's approval covers them.
   */
  readonly programFiles?: readonly string[];
  /** Other tools this one calls by name; the registry checks they exist and form no cycle. */
  readonly calls?: readonly ToolReference[];
  /** Set on an alias until the registry resolves it against its base (schema, tags, run). */
  readonly aliasOf?: AliasOf;
  /** Tests declared with the tool in its plugin file. */
  readonly tests?: readonly ToolTest[];
  /** How the tool runs as an MCP task (plugin `task`; imported tasks `preferred`); absent: `optional`. */
  readonly task?: ToolTaskSettings;
  /**
   * Runs input already validated against `inputSchema`, defaults applied. Throws on failure
   * (ToolInputError when the input must change); the registry words the error result.
   */
  run(input: ToolInput, context: ToolRunContext): Promise<ToolResult>;
}

/** A place in a plugin file (1-based). */
export interface FilePosition {
  readonly line: number;
  readonly column: number;
}

/** Another tool a plugin tool calls by name (a `tool` step, or an alias's base), where it is named. */
export interface ToolReference extends FilePosition {
  readonly tool: string;
}

/** A test declared with a tool in its plugin file. */
export interface ToolTest extends FilePosition {
  readonly name: string;
  readonly input: ToolInput;
  readonly expect: TestExpectation;
  readonly timeoutMs?: number;
}

/** What a declared test expects of the result; every given field must hold. */
export interface TestExpectation {
  readonly isError?: boolean;
  readonly exitCode?: number;
  readonly outputContains?: string;
  readonly outputMatches?: string;
  readonly outputNotContains?: string;
}

/** A tool that is another tool with preset defaults, resolved when every tool is known. */
export interface AliasOf extends FilePosition {
  readonly base: string;
  readonly defaults: Readonly<Record<string, unknown>>;
}

/** A problem found while loading a plugin file. Positions are 1-based. */
export interface PluginDiagnostic {
  readonly file: string;
  /** The tool's name, or `tools[N]` when it has none, when the problem is inside a tool. */
  readonly tool?: string;
  /** The prompt's name, or `prompts[N]` when it has none, when the problem is inside a prompt. */
  readonly prompt?: string;
  readonly line: number;
  readonly column: number;
  /**
   * Where the offending text ends (the column is exclusive), so an editor underlines all of it:
   * the `|`, the `{{name}}`, the wrong value, the misspelt key. Absent when only the start is known.
   */
  readonly endLine?: number;
  readonly endColumn?: number;
  /**
   * What found it: `syntax` (the JSON itself), a JSON Schema keyword of the plugin file schema
   * (`type`, `enum`, `required`, `additionalProperties`, ...), or absent for the checks the
   * schema cannot express (placeholders, shell operators, duplicates, ...).
   */
  readonly rule?: string;
  readonly message: string;
}

/** A successful tool call result. */
export function textResult(text: string, structured?: Readonly<Record<string, unknown>>): ToolResult {
  return structured === undefined ? { text, isError: false } : { text, isError: false, structured };
}

/** A failed tool call result, worded for the model. */
export function errorResult(text: string): ToolResult {
  return { text, isError: true };
}

/** `file:line:col: [tool] message`, the one way diagnostics are printed. */
export function formatDiagnostic(diagnostic: PluginDiagnostic): string {
  const where = `${diagnostic.file}:${diagnostic.line}:${diagnostic.column}`;
  const subject = diagnosticSubject(diagnostic);
  return `${where}:${subject === undefined ? '' : ` ${subject}:`} ${diagnostic.message}`;
}

/** What a diagnostic is about, in words: `tool "x"`, `prompt "x"`, `resource x`, or undefined for the whole file. */
export function diagnosticSubject(diagnostic: PluginDiagnostic): string | undefined {
  if (diagnostic.prompt !== undefined) {
    return `prompt "${diagnostic.prompt}"`;
  }
  if (diagnostic.tool?.startsWith('resource ') === true) {
    // A resource's problems are labelled `resource NAME` (no tool name has a space).
    return diagnostic.tool;
  }
  return diagnostic.tool === undefined ? undefined : `tool "${diagnostic.tool}"`;
}
