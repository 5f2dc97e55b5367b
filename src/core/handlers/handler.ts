/**
 * The one contract between plugin loading and the handler types (shell, http, file-read, code): a
 * handler spec is compiled once, at load, into either its problems or a runnable handler whose
 * summary and approval text come from the same compiled form. `run` only fills in values.
 * Adding a handler type is a folder that exports a HandlerType, one entry in ./index.ts, and its
 * branch of schemas/tool-plugin.schema.json.
 */
import type { SourceFiles } from '../files/source-file';
import type { MediaOutput } from './media-output';
import type { DeclaredSandbox, JsonObjectSchema, ToolInput, ToolResult, ToolRunContext, ToolTag, WorkspaceFolder } from '../types';

/** A load-time problem in a handler, located by a JSON path relative to the tool object. */
export interface HandlerProblem {
  /** e.g. ['handler', 'command', 2]; the loader maps it to line:column. */
  readonly path: readonly (string | number)[];
  readonly message: string;
  /**
   * The characters of the string at `path` that are wrong (a shell operator, a `{{name}}`), as
   * offsets into the string's value; the loader turns them into the file's line:column range.
   */
  readonly span?: { readonly start: number; readonly length: number };
}

/** What a handler knows about the tool it serves. */
export interface HandlerTarget {
  readonly toolName: string;
  /** The tool's input schema (the file's, or the handler's fixed one). */
  readonly inputSchema: JsonObjectSchema;
  /** The workspace folder the plugin belongs to: cwd, basePath and relative paths resolve here. */
  readonly folder: WorkspaceFolder;
  /** The tool's tags as its file declares them; undefined when it declares none. */
  readonly tags?: readonly ToolTag[];
  /**
   * The tool's declared widening of its OS sandbox (its `sandbox` block, or its import entry's),
   * checked at load (write paths inside the folder). The tags it implies (`write` for paths to
   * write, `network` for hosts: sandbox/policy.ts tagsImpliedBySandbox) are part of the tool's
   * effective tags, not of `tags` above.
   */
  readonly sandbox?: DeclaredSandbox;
  /** The files that specs of this plugin file name (code modules), read by the loader. */
  readonly sources?: SourceFiles;
  /** The tool's declared image or audio output (shell and http: stdout or the body is that file). */
  readonly mediaOutput?: MediaOutput;
}

/**
 * Runs input that was validated against the tool's schema, defaults applied. A failure is
 * thrown (ToolInputError for input the model must change); only the registry turns a throw into
 * an error result. An outcome that is itself an error (a non-zero exit, an HTTP 404) is returned
 * as an error result, with its output.
 */
export type HandlerRun = (input: ToolInput, context: ToolRunContext) => Promise<ToolResult>;

/** A handler ready to run, with the words that say what it runs. */
export interface CompiledHandler {
  readonly run: HandlerRun;
  /** One line saying what runs: the exact command, URL or base path (tooltips, listings). */
  readonly summary: string;
  /** Everything it can run, for the person who approves the file: argv, full script, URL and headers. */
  readonly approvalLines: readonly string[];
  /**
   * What one call with this (validated) input would run, for a confirmation: each argument of the
   * expanded argv on its own line, the method and final URL, or the file. Throws what `run` would
   * throw for input it refuses.
   */
  readonly preview?: (input: ToolInput, limits: { readonly maxValueLength: number }) => readonly string[];
  /** Tags the tool gets whatever it declares: what the handler cannot keep it from doing. */
  readonly impliedTags?: readonly ToolTag[];
  /**
   * Workspace files it runs besides its spec (a shell program written as a path, the script an
   * interpreter is handed: handlers/shell/program-words.ts), relative to the folder with `/`.
   * Read with the plugin file and covered by its approval (plugins/program-files.ts).
   */
  readonly programFiles?: readonly string[];
  /**
   * What confines it, in words, when the processes it starts are not put in the OS sandbox (only
   * the shell handler's are): a code tool's permission model, "starts no process".
   */
  readonly confinement?: string;
}

/** What compiling a handler spec gives: a runnable handler, or what is wrong with the spec. */
export type CompileResult = { readonly problems: readonly HandlerProblem[] } | CompiledHandler;

/** One handler type. */
export interface HandlerType<Spec> {
  /** The tags of a tool of this type that declares none (what the handler can do). */
  readonly defaultTags: readonly ToolTag[];
  /** The handler's fixed input schema, if it has one (file-read); else the tool's is used. */
  readonly fixedInputSchema?: JsonObjectSchema;
  /** Checks the spec (what the JSON Schema cannot) and compiles it for this platform. */
  compile(spec: Spec, target: HandlerTarget): CompileResult;
}

/** Whether compiling failed. */
export function hasProblems(result: CompileResult): result is { readonly problems: readonly HandlerProblem[] } {
  return 'problems' in result;
}
