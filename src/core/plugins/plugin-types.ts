/**
 * The plugin file format as it is after schema validation (schemas/tool-plugin.schema.json is
 * the authority; these types mirror it). Each handler type owns its spec (src/core/handlers).
 */
import type { HandlerSpec } from '../handlers';
import type { ImportEntry } from '../imports/import-entry';
import type { PluginResourceSpec } from '../resources/resource-spec';
import type { PromptSpec } from '../prompts';
import type { RunIf } from '../steps/run-if';
import type { DeclaredSandbox, JsonObjectSchema, TaskSupport, TestExpectation, ToolInput, ToolTag } from '../types';

/** One step of a multi-step tool: a handler to run, or another tool to call. */
export interface StepSpec {
  readonly name: string;
  readonly handler?: HandlerSpec;
  readonly tool?: string;
  readonly with?: Readonly<Record<string, unknown>>;
  readonly runIf?: RunIf;
  readonly continueOnError?: boolean;
  readonly retry?: { readonly attempts: number; readonly delayMs?: number };
  readonly parallel?: boolean;
  readonly timeout?: number;
}

/** A test declared with a tool. */
export interface TestSpec {
  readonly name: string;
  readonly input?: ToolInput;
  readonly expect: TestExpectation;
  readonly timeoutMs?: number;
}

/** One entry of `tools`: exactly one of `handler`, `steps` or `alias`. */
export interface PluginToolSpec {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema?: JsonObjectSchema;
  readonly tags?: readonly ToolTag[];
  readonly handler?: HandlerSpec;
  readonly steps?: readonly StepSpec[];
  /** Steps tools: milliseconds for the whole tool. */
  readonly timeout?: number;
  /** How it runs as an MCP task: `support`, and `timeout` (ms) of a run as a task. */
  readonly task?: { readonly support?: TaskSupport; readonly timeout?: number };
  readonly alias?: string;
  readonly defaults?: Readonly<Record<string, unknown>>;
  readonly tests?: readonly TestSpec[];
  /**
   * `format: "json"`: stdout (or the HTTP body) is parsed into structured output; `image` or
   * `audio` (shell, http): stdout (or the body) is a file of type `mimeType`.
   */
  readonly output?: { readonly format: 'text' | 'json' | 'image' | 'audio'; readonly schema?: JsonObjectSchema; readonly mimeType?: string };
  /** Shell and http tools: a question the user answers before each run (plugins/confirm.ts). */
  readonly confirm?: ConfirmSpec;
  /**
   * Shell tools and steps tools with shell steps: what the OS sandbox lets the tool's processes
   * do beyond its tags (plugins/declared-sandbox.ts checks it; sandbox/policy.ts applies it).
   */
  readonly sandbox?: DeclaredSandbox;
}

/** A tool's `confirm`: what the user is asked, and the fields of the form, if any. */
export interface ConfirmSpec {
  /** A template: `{{name}}` placeholders of the input, filled as text. */
  readonly message: string;
  /** A flat form; its answers are input values of the run. */
  readonly schema?: JsonObjectSchema;
}

/** A whole plugin file. */
export interface PluginFileSpec {
  readonly $schema?: string;
  readonly name?: string;
  readonly version?: string;
  readonly description?: string;
  readonly tools?: readonly PluginToolSpec[];
  /** What the file serves as MCP resources (src/core/resources). */
  readonly resources?: readonly PluginResourceSpec[];
  readonly prompts?: readonly PromptSpec[];
  /** Tasks the workspace already declares, served as tools (plugins/imported-tools.ts). */
  readonly import?: readonly ImportEntry[];
}
