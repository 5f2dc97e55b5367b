/**
 * The call pipeline: what happens between a door handing over a tool's name and input and the
 * result it gets back. Refuse what is not served (a typed Refusal, so no door looks a tool up
 * first), refuse a nested call its caller may not make, validate the input, wait for a turn in
 * the call tree's budget, run, check JSON output, and turn any failure into an error result.
 */
import type { Sandbox } from '../sandbox/sandbox';
import { askThrough } from '../content/ask';
import { StaleToolError, ToolInputError, errorResultFor } from '../tool-errors';
import type { CallOptions, ExecutionLimits, Logger, PluginDiagnostic, SchemaCheck, ToolDefinition, ToolResult, ToolRunContext, WorkspaceFolder } from '../types';
import { formatDiagnostic } from '../types';
import type { CallNode, NestedTurn } from './call-budget';
import type { InputValidator } from './input-validator';
import { folderOfCall, withFolder } from './call-folder';
import { withJsonOutput } from './json-output';
import { nestedCallRefusal } from './nested-call-rules';
import type { RegisteredTool, RegistrySnapshot } from './snapshot';

/** Why a call ran nothing: the tool is not served. The doors word it for their audience. */
export type Refusal =
  | {
      readonly reason: 'unknown';
      readonly tool: string;
      /** The names that are served. */
      readonly available: readonly string[];
      /** The problems that kept a tool of this name from loading, when a plugin file declares one. */
      readonly notLoaded?: readonly PluginDiagnostic[];
    }
  | { readonly reason: 'awaiting-approval'; readonly tool: string; readonly changed?: readonly string[] }
  | { readonly reason: 'disabled'; readonly tool: string };

/**
 * What a call returns: a tool's result, or, beside results, a refusal. A refused call is also an
 * error result worded for the model (`text`), so a door that only relays text needs nothing more.
 */
export type CallResult = ToolResult & {
  readonly refusal?: Refusal;
  /** The workspace folder the tool ran in (absolute; call-folder.ts), when it ran and that can be told. */
  readonly folder?: string;
};

/** Who makes a call: the tools that called, outermost first (none: a door), and its place in the call tree. */
export interface Caller {
  readonly tools: readonly ToolDefinition[];
  readonly node: CallNode;
}

/** What the pipeline reads on every call: the registry's current state and the host's settings. */
export interface PipelineSources {
  readonly snapshot: () => RegistrySnapshot;
  readonly validator: InputValidator;
  readonly folders: () => readonly WorkspaceFolder[];
  readonly limits: () => ExecutionLimits;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly logger: Logger;
  /** Loads the plugin files again (a tool found stale on disk must wait for approval). */
  readonly reload: () => void;
  /** The OS sandbox shell and imported tools run in. */
  readonly sandbox?: Sandbox;
}

/** What a call would run, each part on its own line, or why its input is refused. */
export type CallPreview = { readonly lines: readonly string[] } | { readonly error: string };

/**
 * What calling `name` with `input` would run, after the input is validated with defaults
 * applied; undefined for a tool that cannot say (built-ins, steps, aliases). Nothing runs.
 */
export function previewCall(sources: PipelineSources, name: string, input: unknown): CallPreview | undefined {
  const definition = sources.snapshot().byName.get(name)?.definition;
  if (definition?.preview === undefined) {
    return undefined;
  }
  const checked = sources.validator.check(definition.inputSchema, input);
  if (!checked.ok) {
    return { error: checked.message };
  }
  try {
    return { lines: definition.preview(checked.input, sources.limits()) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** The served tool of that name, or why there is none. */
function lookUp(name: string, snapshot: RegistrySnapshot): RegisteredTool | Refusal {
  const tool = snapshot.byName.get(name);
  if (tool === undefined) {
    const notLoaded = snapshot.files.flatMap((file) => file.diagnostics.filter((diagnostic) => diagnostic.tool === name));
    return { reason: 'unknown', tool: name, available: snapshot.active.map((definition) => definition.name), ...(notLoaded.length === 0 ? {} : { notLoaded }) };
  }
  switch (tool.state) {
    case 'active':
      return tool;
    case 'pending-approval':
      return { reason: 'awaiting-approval', tool: name, ...(tool.changed === undefined ? {} : { changed: tool.changed }) };
    case 'disabled':
      return { reason: 'disabled', tool: name };
  }
}

/** A refusal worded for the model. */
export function refusalText(refusal: Refusal): string {
  switch (refusal.reason) {
    case 'unknown':
      return refusal.notLoaded === undefined
        ? `Unknown tool "${refusal.tool}". Available tools: ${refusal.available.join(', ') || '(none)'}.`
        : notLoadedText(refusal.tool, refusal.notLoaded);
    case 'awaiting-approval':
      if (refusal.changed !== undefined && refusal.changed.length > 0) {
        const files = refusal.changed.join(', ');
        return `Tool "${refusal.tool}" is not available: ${files} changed (edited, created or deleted) since its plugin file was approved (approval covers ${refusal.changed.length === 1 ? 'it' : 'them'}), so it waits for the user's approval.`;
      }
      return `Tool "${refusal.tool}" is not available: its plugin file changed or is new and waits for the user's approval.`;
    case 'disabled':
      return `Tool "${refusal.tool}" is disabled by the user.`;
  }
}

/** A tool a plugin file declares that did not load: its first problem, and how many more. */
export function notLoadedText(tool: string, problems: readonly PluginDiagnostic[]): string {
  const [first] = problems;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length === 2 ? '' : 's'}; "check" lists them)` : '';
  return `Tool "${tool}" did not load: ${first === undefined ? 'its plugin file has a problem' : formatDiagnostic(first)}${more}. Fix its plugin file to use it.`;
}

/**
 * Runs `name` for `caller` (a door: no tools; callTool: the tools that called). A nested call
 * waits for a turn in its top-level call's budget (call-budget.ts), and its result is cut at the
 * output limit and counted there before the caller gets it. The one place a failure becomes an
 * error result (errorResultFor), worded the same way for every tool; this never throws.
 */
export async function runCall(sources: PipelineSources, name: string, input: unknown, options: CallOptions, caller: Caller): Promise<CallResult> {
  const tool = lookUp(name, sources.snapshot());
  if ('reason' in tool) {
    return { text: refusalText(tool), isError: true, refusal: tool };
  }
  const { definition } = tool;
  const { logger } = sources;
  // A result a door gets names the folder the tool ran in; a nested one goes to the calling tool.
  const folder = caller.tools.length === 0 ? folderOfCall(definition, isInput(input) ? input : {}, sources.folders()) : undefined;
  let turn: NestedTurn | undefined;
  try {
    const nested = nestedCallRefusal(definition, caller.tools);
    if (nested !== undefined) {
      throw new Error(nested);
    }
    const checked = sources.validator.check(definition.inputSchema, input);
    if (!checked.ok) {
      throw new ToolInputError(checked.message);
    }
    const taken = caller.tools.length === 0 ? undefined : await caller.node.budget.take(caller.node, name, options.signal);
    if (typeof taken === 'string') {
      throw new Error(taken);
    }
    turn = taken;
    const limits = sources.limits();
    const checkInput: SchemaCheck = (schema, value, root) => sources.validator.check(schema, value, root);
    const inner: Caller = { tools: [...caller.tools, definition], node: turn?.node ?? caller.node };
    const context: ToolRunContext = {
      folders: sources.folders(),
      signal: options.signal,
      limits,
      logger,
      env: sources.env,
      ...(options.progress === undefined ? {} : { progress: options.progress }),
      ...(options.outputs === undefined ? {} : { outputs: options.outputs }),
      ask: askThrough(options.ask, options.door, checkInput),
      checkInput,
      // A step without a limit of its own passes the call's signal: nothing to combine.
      callTool: (innerName, innerInput, innerSignal) => runCall(sources, innerName, innerInput, innerSignal === undefined || innerSignal === options.signal ? options : { ...options, signal: AbortSignal.any([options.signal, innerSignal]) }, inner),
      ...(sources.sandbox === undefined ? {} : { sandbox: sources.sandbox }),
      // A run as an MCP task takes the tool's longer task timeout.
      ...(options.asTask === true && definition.task?.timeoutMs !== undefined ? { timeoutMs: definition.task.timeoutMs } : {}),
    };
    const ran = await definition.run(checked.input, context);
    const result = definition.outputFormat === 'json' ? withJsonOutput(definition, ran, (schema, value) => sources.validator.check(schema, value)) : ran;
    logger.debug(`[registry] ${name} finished${result.isError ? ' with an error result' : ''}`);
    const named = withFolder(result, folder);
    return turn === undefined ? named : turn.settle(name, named, limits.maxOutputBytes);
  } catch (error) {
    logger.warn(`[registry] ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    if (error instanceof StaleToolError) {
      // What is on disk is not what was approved and loaded: load it, so it waits for approval.
      sources.reload();
    }
    return withFolder(errorResultFor(name, error), folder);
  } finally {
    turn?.release();
  }
}

function isInput(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
