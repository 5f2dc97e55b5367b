import type { PluginFile } from '../plugins/plugin-file';
import { approvalHashOf } from '../plugins/plugin-file';
import { StaleToolError, ToolInputError, errorResultFor } from '../tool-errors';
import type {
  CallOptions,
  ExecutionLimits,
  Logger,
  PluginDiagnostic,
  ToolDefinition,
  ToolResult,
  ToolRunContext,
  ToolTag,
  WorkspaceFolder,
} from '../types';
import { errorResult } from '../types';
import type { ApprovalPolicy, ApprovalState } from './approval';
import type { CallNode, NestedTurn } from './call-budget';
import { CallBudget } from './call-budget';
import { nestedCallRefusal } from './nested-call-rules';
import { Emitter } from './emitter';
import type { Event } from './emitter';
import { finishedCall } from '../history/finished-call';
import type { CallHistory } from '../history/history-file';
import { InputValidator } from './input-validator';
import { withJsonOutput } from './json-output';
import type { PluginFileStatus, RegisteredTool, RegistrySnapshot } from './snapshot';
import { EMPTY_SNAPSHOT, buildSnapshot } from './snapshot';
import { ValidatorWarmUp } from './validator-warm-up';

/** Who makes a call: the tools that called, outermost first (none: a door), and its place in the call tree. */
interface Caller {
  readonly tools: readonly ToolDefinition[];
  readonly node: CallNode;
}

/** Loads every plugin file from the directories the caller currently cares about. */
export type PluginLoader = () => Promise<readonly PluginFile[]>;

/** What a person reviews before approving a plugin file: exactly the loaded content, and what each tool runs. */
export interface ApprovalSubject {
  readonly file: string;
  readonly pluginName: string;
  /** The text that is shown for review. */
  readonly text: string;
  /** The hash the approval records: of what the file runs (plugins/approval-hash.ts). */
  readonly contentHash: string;
  readonly approval: PluginFileStatus['approval'];
  /** Each tool that loads, with its effective tags and everything it can run. */
  readonly tools: ReadonlyArray<{ readonly name: string; readonly tags: readonly ToolTag[]; readonly runs: readonly string[] }>;
  /** Problems of the file (the tools they concern do not load, so they run nothing). */
  readonly diagnostics: readonly PluginDiagnostic[];
}

/** What a registry serves and runs with; each host (extension, server) fills it in. */
export interface RegistryOptions {
  /** Built-in tools, registered first; empty for `--no-builtins`. */
  readonly builtins: readonly ToolDefinition[];
  /** Absent when plugins are off (`--no-plugins`, Restricted Mode). */
  readonly loadPlugins?: PluginLoader;
  readonly approval: ApprovalPolicy;
  /** The current workspace folders (read on every call: folders can change). */
  readonly folders: () => readonly WorkspaceFolder[];
  readonly limits: () => ExecutionLimits;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly logger: Logger;
  readonly disabledTools?: Iterable<string>;
  /** Where each call is recorded, after its result was returned (none: not recorded). */
  readonly history?: CallHistory;
}

/**
 * Holds every tool from every source and runs calls. State is one immutable snapshot that
 * reload replaces whole: a call in flight keeps the definition it started with, and
 * built-ins are carried over untouched.
 */
export class ToolRegistry {
  private snapshot: RegistrySnapshot = EMPTY_SNAPSHOT;
  private disabled: ReadonlySet<string>;
  private readonly validator = new InputValidator();
  private readonly warmUp: ValidatorWarmUp;
  private readonly changeEmitter = new Emitter<void>();
  private initialized: Promise<void> | undefined;
  private reloading: Promise<boolean> | undefined;
  private reloadQueued: Promise<boolean> | undefined;
  /** The last plugin load, kept so enabling a tool rebuilds without touching the disk. */
  private lastLoad: { files: readonly PluginFile[]; approvals: ReadonlyMap<string, ApprovalState> } = {
    files: [],
    approvals: new Map(),
  };

  /** Fires after a load that changed what is served or shown. */
  readonly onDidChange: Event<void> = this.changeEmitter.event;

  constructor(private readonly options: RegistryOptions) {
    this.disabled = new Set(options.disabledTools ?? []);
    this.warmUp = new ValidatorWarmUp(this.validator, () => this.snapshot.active, options.logger);
    // The built-ins need no loading: listed (and callable) from the start, before any plugin file is read.
    this.snapshot = this.rebuild();
  }

  /** The first load; later calls return the same promise. */
  initialize(): Promise<void> {
    this.initialized ??= this.reload().then(() => undefined);
    return this.initialized;
  }

  /**
   * Loads the plugin files again and swaps the result in. Concurrent requests coalesce: a
   * reload asked for while one runs is done once more after it, so no change is missed.
   * Resolves to whether anything changed.
   */
  reload(): Promise<boolean> {
    if (this.reloading === undefined) {
      // A failed load keeps the tools that were there and is logged; it never rejects, so the
      // callers that fire and forget (watchers, the first load after initialize) cannot crash.
      this.reloading = this.load()
        .catch((error: unknown) => {
          this.options.logger.error(`[registry] loading plugin files failed; keeping the previous tools: ${String(error)}`);
          return false;
        })
        .finally(() => {
          this.reloading = undefined;
        });
      return this.reloading;
    }
    this.reloadQueued ??= this.reloading.then(() => {
      this.reloadQueued = undefined;
      return this.reload();
    });
    return this.reloadQueued;
  }

  /** The tools that are served (approved, enabled), in registration order. */
  list(): readonly ToolDefinition[] {
    return this.snapshot.active;
  }

  /** Every tool, served or not, with its state. */
  all(): readonly RegisteredTool[] {
    return [...this.snapshot.byName.values()];
  }

  builtins(): readonly RegisteredTool[] {
    return this.snapshot.builtins;
  }

  files(): readonly PluginFileStatus[] {
    return this.snapshot.files;
  }

  diagnostics(): readonly PluginDiagnostic[] {
    return this.snapshot.files.flatMap((file) => file.diagnostics);
  }

  get(name: string): RegisteredTool | undefined {
    return this.snapshot.byName.get(name);
  }

  /**
   * What calling `name` with `input` would run, each part on its own line (the expanded argv,
   * method and URL), after the input is validated with defaults applied; or why the input is
   * refused. Undefined for a tool that cannot say (built-ins, steps, aliases).
   */
  previewCall(name: string, input: unknown): { readonly lines: readonly string[] } | { readonly error: string } | undefined {
    const definition = this.snapshot.byName.get(name)?.definition;
    if (definition?.preview === undefined) {
      return undefined;
    }
    const checked = this.validator.check(definition.inputSchema, input);
    if (!checked.ok) {
      return { error: checked.message };
    }
    try {
      return { lines: definition.preview(checked.input, this.options.limits()) };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Whether a tool of that name is served. */
  has(name: string): boolean {
    return this.snapshot.byName.get(name)?.state === 'active';
  }

  /** How many tools are served. */
  get count(): number {
    return this.snapshot.active.length;
  }

  /** A value that changes whenever what is served or shown changes (for caches). */
  get fingerprint(): string {
    return this.snapshot.fingerprint;
  }

  /**
   * Compiles the input validators of the served tools in the background, one per turn of the
   * event loop, so first calls find them ready. Not done by loading itself: the first load runs
   * during start-up, and the host knows when start-up is over (the MCP server: after the
   * handshake). Resolves to how many it compiled; never rejects.
   */
  compileValidators(): Promise<number> {
    return this.warmUp.run();
  }

  /** Whether a tool's input validator is compiled, so its next call will not compile it. */
  isValidatorCompiled(name: string): boolean {
    const tool = this.snapshot.byName.get(name);
    return tool !== undefined && this.validator.isCompiled(tool.definition.inputSchema);
  }

  /** Switches tools off (by name); the rest on. */
  setDisabledTools(names: Iterable<string>): void {
    this.disabled = new Set(names);
    this.swap(this.rebuild());
  }

  /**
   * Approves what a plugin file runs as loaded, then reloads so its tools are served. With
   * `expectedContentHash` (ApprovalSubject.contentHash of what the user was shown) it refuses
   * when what the file runs is no longer that, so nothing unseen is ever approved.
   */
  async approve(file: string, expectedContentHash?: string): Promise<void> {
    const status = this.snapshot.files.find((candidate) => candidate.file === file);
    if (status === undefined) {
      throw new Error(`No plugin file ${file} is loaded.`);
    }
    if (expectedContentHash !== undefined && approvalHashOf(status.loaded) !== expectedContentHash) {
      throw new Error(`${file} changed since it was shown for approval; review it again.`);
    }
    await this.options.approval.approve(status.loaded);
    await this.reload();
  }

  /**
   * What approving `file` would approve: its loaded text and hash, and what each tool runs, from
   * the compiled tools (nothing is read or parsed again). Undefined for a file not loaded.
   */
  approvalSubject(file: string): ApprovalSubject | undefined {
    const status = this.snapshot.files.find((candidate) => candidate.file === file);
    if (status === undefined) {
      return undefined;
    }
    const { loaded } = status;
    // The registered definition has the effective tags (an alias's come from its base).
    const effectiveTags = new Map(status.tools.map((tool) => [tool.definition.name, tool.definition.tags]));
    return {
      file: status.file,
      pluginName: status.pluginName,
      text: loaded.text,
      contentHash: approvalHashOf(loaded),
      approval: status.approval,
      tools: loaded.tools.map((tool) => ({ name: tool.name, tags: effectiveTags.get(tool.name) ?? tool.tags, runs: tool.approvalLines ?? [tool.handlerSummary] })),
      diagnostics: status.diagnostics,
    };
  }

  /**
   * Validates the input against the tool's schema, then runs it. The one place a failure becomes
   * an error result (errorResultFor), worded the same way for every tool; this never throws.
   * `options` is the cancellation signal, or it with a progress callback.
   */
  async call(name: string, input: unknown, options: AbortSignal | CallOptions): Promise<ToolResult> {
    const callOptions = options instanceof AbortSignal ? { signal: options } : options;
    const started = Date.now();
    const startedAt = performance.now();
    const result = await this.callAs(name, input, callOptions, { tools: [], node: CallBudget.root(this.options.limits().nestedConcurrency) });
    const durationMs = performance.now() - startedAt;
    // Only what the history keeps is taken now; it is redacted and written after the door has sent the result.
    this.options.history?.record(finishedCall(name, input, result, { door: callOptions.door ?? 'cli', started, durationMs, workspace: this.options.folders()[0]?.path }));
    return result;
  }

  /**
   * A call made by the tools in `caller.tools` (outermost first; none for a top-level call), for
   * callTool. A nested call waits for a turn in its top-level call's budget (call-budget.ts), and
   * its result is cut at the output limit and counted there before the caller gets it.
   */
  private async callAs(name: string, input: unknown, options: CallOptions, caller: Caller): Promise<ToolResult> {
    await this.initialize();
    const tool = this.snapshot.byName.get(name);
    if (tool?.state !== 'active') {
      return errorResult(refusalFor(name, tool, this.snapshot));
    }
    const { definition } = tool;
    const { logger } = this.options;
    let turn: NestedTurn | undefined;
    try {
      const refusal = nestedCallRefusal(definition, caller.tools);
      if (refusal !== undefined) {
        throw new Error(refusal);
      }
      const checked = this.validator.check(definition.inputSchema, input);
      if (!checked.ok) {
        throw new ToolInputError(checked.message);
      }
      const taken = caller.tools.length === 0 ? undefined : await caller.node.budget.take(caller.node, name, options.signal);
      if (typeof taken === 'string') {
        throw new Error(taken);
      }
      turn = taken;
      const limits = this.options.limits();
      const inner: Caller = { tools: [...caller.tools, definition], node: turn?.node ?? caller.node };
      const context: ToolRunContext = {
        folders: this.options.folders(),
        signal: options.signal,
        limits,
        logger,
        env: this.options.env,
        ...(options.progress === undefined ? {} : { progress: options.progress }),
        ...(options.outputs === undefined ? {} : { outputs: options.outputs }),
        callTool: (innerName, innerInput) => this.callAs(innerName, innerInput, options, inner),
      };
      const ran = await definition.run(checked.input, context);
      const result = definition.outputFormat === 'json' ? withJsonOutput(definition, ran, (schema, value) => this.validator.check(schema, value)) : ran;
      logger.debug(`[registry] ${name} finished${result.isError ? ' with an error result' : ''}`);
      return turn === undefined ? result : turn.settle(name, result, limits.maxOutputBytes);
    } catch (error) {
      logger.warn(`[registry] ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      if (error instanceof StaleToolError) {
        // What is on disk is not what was approved and loaded: load it, so it waits for approval.
        void this.reload();
      }
      return errorResultFor(name, error);
    } finally {
      turn?.release();
    }
  }

  dispose(): void {
    this.warmUp.dispose();
    this.changeEmitter.dispose();
  }

  private async load(): Promise<boolean> {
    const started = performance.now();
    const files = this.options.loadPlugins === undefined ? [] : await this.options.loadPlugins();
    const approvals = await this.options.approval.statesOf(files);
    this.lastLoad = { files, approvals };
    const changed = this.swap(this.rebuild());
    const snapshot = this.snapshot;
    this.options.logger.info(
      `[registry] loaded ${snapshot.byName.size} tools (${snapshot.active.length} served) from ${files.length} plugin files in ${(performance.now() - started).toFixed(1)} ms`,
    );
    return changed;
  }

  private rebuild(): RegistrySnapshot {
    return buildSnapshot({
      builtins: this.options.builtins,
      files: this.lastLoad.files,
      approvals: this.lastLoad.approvals,
      disabledTools: this.disabled,
      previous: this.snapshot,
    });
  }

  private swap(next: RegistrySnapshot): boolean {
    const changed = next.fingerprint !== this.snapshot.fingerprint;
    this.snapshot = next;
    if (changed) {
      this.changeEmitter.fire();
    }
    return changed;
  }
}

/** Why a tool that is not active cannot run, worded for the model. */
function refusalFor(name: string, tool: RegisteredTool | undefined, snapshot: RegistrySnapshot): string {
  if (tool === undefined) {
    const names = snapshot.active.map((definition) => definition.name).join(', ');
    return `Unknown tool "${name}". Available tools: ${names || '(none)'}.`;
  }
  if (tool.state === 'pending-approval') {
    return `Tool "${name}" is not available: its plugin file changed or is new and waits for the user's approval.`;
  }
  return `Tool "${name}" is disabled by the user.`;
}
