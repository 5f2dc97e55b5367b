/**
 * The contract between plugin loading and the handler strategies (shell, http, file-read).
 */
import type { JsonObjectSchema, ToolInput, ToolResult, ToolRunContext, WorkspaceFolder } from '../types';

/** A load-time problem in a handler, located by a JSON path relative to the tool object. */
export interface HandlerProblem {
  /** e.g. ['handler', 'command', 2]; the loader maps it to line:column. */
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** What a handler knows about the tool it serves. */
export interface HandlerTarget {
  readonly toolName: string;
  /** The tool's input schema (the file's, or the handler's fixed one). */
  readonly inputSchema: JsonObjectSchema;
  /** The workspace folder the plugin belongs to: cwd, basePath and relative paths resolve here. */
  readonly folder: WorkspaceFolder;
}

/** Runs validated input. Throwing is fine: the registry turns it into an error result. */
export type HandlerRun = (input: ToolInput, context: ToolRunContext) => Promise<ToolResult>;

/** One handler strategy. */
export interface HandlerStrategy<Spec> {
  /** Semantic checks the JSON Schema cannot express (placeholders, shell operators, ...). */
  check(spec: Spec, inputSchema: JsonObjectSchema): HandlerProblem[];
  /** One line saying what runs: the exact command, URL or base path. */
  summarize(spec: Spec): string;
  /** The handler's fixed input schema, if it has one (file-read); else the tool's is used. */
  readonly fixedInputSchema?: JsonObjectSchema;
  create(spec: Spec, target: HandlerTarget): HandlerRun;
}
