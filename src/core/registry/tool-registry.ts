import type { PluginFile } from '../plugins/plugin-file';
import { approvalHashOf } from '../plugins/plugin-file';
import type { CallOptions, ExecutionLimits, Logger, PluginDiagnostic, ToolDefinition, WorkspaceFolder } from '../types';
import type { ApprovalPolicy, ApprovalState } from '../approval/approval-policy';
import type { ApprovalSubject } from '../approval/approval-subject';
import { approvalSubjectOf } from '../approval/approval-subject';
import { coveredPartsOf } from '../approval/covered-parts';
import { finishedCall } from '../history/finished-call';
import type { CallHistory } from '../history/history-file';
import { CallBudget } from './call-budget';
import { CoalescedReload } from './coalesced-reload';
import type { CallPreview, CallResult, PipelineSources } from './call-pipeline';
import { previewCall, runCall } from './call-pipeline';
import { Emitter } from './emitter';
import type { Event } from './emitter';
import { InputValidator } from './input-validator';
import type { Completion } from '../completions';
import type { PromptDefinition, RenderedPrompt } from '../prompts';
import { completePromptArgument, getPrompt } from './prompt-requests';
import { completeTemplateVariable } from '../resources/complete-variable';
import { servedResources } from '../resources/resource-catalog';
import type { PluginFileStatus, RegisteredPrompt, RegisteredTool, RegistrySnapshot } from './snapshot';
import { EMPTY_SNAPSHOT, buildSnapshot } from './snapshot';
import { ValidatorWarmUp } from './validator-warm-up';
import type { Sandbox } from '../sandbox/sandbox';
import { requiredButUnavailable } from '../sandbox/status';

/** Loads every plugin file from the directories the caller currently cares about. */
export type PluginLoader = () => Promise<readonly PluginFile[]>;

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
  /**
   * The OS sandbox shell and imported tools run in (none: they run as they are). Under
   * `required`, a load waits for its probe, and when it is unavailable those tools are not served.
   */
  readonly sandbox?: Sandbox;
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
  /** What each call reads: always the current snapshot and settings. */
  private readonly pipeline: PipelineSources;
  private readonly changeEmitter = new Emitter<void>();
  private initialized: Promise<void> | undefined;
  private readonly reloads = new CoalescedReload(
    () => this.load(),
    // A failed load keeps the tools that were there and is logged.
    (error) => {
      this.options.logger.error(`[registry] loading plugin files failed; keeping the previous tools: ${String(error)}`);
      return false;
    },
  );
  /** The last plugin load, kept so enabling a tool rebuilds without touching the disk. */
  private lastLoad: { files: readonly PluginFile[]; approvals: ReadonlyMap<string, ApprovalState>; changes: ReadonlyMap<string, readonly string[]> } = {
    files: [],
    approvals: new Map(),
    changes: new Map(),
  };

  /** Fires after a load that changed what is served or shown. */
  readonly onDidChange: Event<void> = this.changeEmitter.event;

  constructor(private readonly options: RegistryOptions) {
    this.disabled = new Set(options.disabledTools ?? []);
    this.warmUp = new ValidatorWarmUp(this.validator, () => this.snapshot.active, options.logger);
    const { folders, limits, env, logger, sandbox } = options;
    this.pipeline = { snapshot: () => this.snapshot, validator: this.validator, folders, limits, env, logger, reload: () => void this.reload(), ...(sandbox === undefined ? {} : { sandbox }) };
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
    return this.reloads.run();
  }

  /** The tools that are served (approved, enabled), in registration order. */
  list(): readonly ToolDefinition[] {
    return this.snapshot.active;
  }

  /** Every tool, served or not, with its state. */
  all(): readonly RegisteredTool[] {
    return [...this.snapshot.byName.values()];
  }

  /** Whether plugin files are loaded at all (not `--no-plugins`, not Restricted Mode): only then can prompts be served. */
  get loadsPluginFiles(): boolean {
    return this.options.loadPlugins !== undefined;
  }

  /** The prompts that are served (their file approved), in file order. */
  prompts(): readonly PromptDefinition[] {
    return this.snapshot.activePrompts;
  }

  /** Every prompt, served or not, with its state. */
  allPrompts(): readonly RegisteredPrompt[] {
    return [...this.snapshot.prompts.values()];
  }

  /**
   * The served prompt `name` rendered with `args`, once the first load is done. Throws
   * PromptNotServedError or PromptArgumentError (core/prompts) for what a client must change.
   */
  async getPrompt(name: string, args: Readonly<Record<string, string>>): Promise<RenderedPrompt> {
    await this.initialize();
    return getPrompt(this.snapshot, name, args);
  }

  /**
   * The values that complete `argument` of the served prompt `name`, given what was typed. Throws
   * as getPrompt does, and CompletionError (core/completions) when its source fails.
   */
  async completePrompt(request: { readonly name: string; readonly argument: string; readonly prefix: string }, signal: AbortSignal): Promise<Completion> {
    await this.initialize();
    const { env, logger } = this.options;
    return completePromptArgument(this.snapshot, request, { env, logger, limits: this.options.limits(), signal });
  }

  /**
   * The values that complete `variable` of the served resource template `uriTemplate`, given
   * what was typed. Throws UnknownTemplateVariableError for a template or variable not served,
   * and CompletionError when its source fails.
   */
  async completeResourceVariable(request: { readonly uriTemplate: string; readonly variable: string; readonly prefix: string }, signal: AbortSignal): Promise<Completion> {
    await this.initialize();
    const { env, logger } = this.options;
    return completeTemplateVariable(servedResources(this.files()), request, { env, logger, limits: this.options.limits(), signal });
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
  previewCall(name: string, input: unknown): CallPreview | undefined {
    return previewCall(this.pipeline, name, input);
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
   * event loop, so first calls find them ready; Ajv, when a served tool needs it, is loaded before
   * this returns. Not done by loading itself: the host decides when (the MCP server: before its
   * first answer). Resolves to how many it compiled; never rejects.
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
    await this.options.approval.approve(withCovers(status.loaded));
    await this.reload();
  }

  /**
   * What approving `file` would approve: its loaded text and hash, and what each tool runs, from
   * the compiled tools (nothing is read or parsed again). Undefined for a file not loaded.
   */
  approvalSubject(file: string): ApprovalSubject | undefined {
    const status = this.snapshot.files.find((candidate) => candidate.file === file);
    return status === undefined ? undefined : approvalSubjectOf(status);
  }

  /**
   * Runs a call through the pipeline (call-pipeline.ts) once the first load is done, then records
   * it in the history. A tool that is not served is refused (CallResult.refusal), so a door needs
   * no look-up of its own; this never throws. `options` is the cancellation signal, or the
   * call's options (signal, door, progress, outputs).
   */
  async call(name: string, input: unknown, options: AbortSignal | CallOptions): Promise<CallResult> {
    const callOptions = options instanceof AbortSignal ? { signal: options } : options;
    const started = Date.now();
    const startedAt = performance.now();
    await this.initialize();
    const root = { tools: [], node: CallBudget.root(this.options.limits().nestedConcurrency) };
    const result = await runCall(this.pipeline, name, input, callOptions, root);
    const durationMs = performance.now() - startedAt;
    // Only what the history keeps is taken now; it is redacted and written after the door has sent the result.
    this.options.history?.record(finishedCall(name, input, result, { door: callOptions.door ?? 'cli', ...(callOptions.caller === undefined ? {} : { caller: callOptions.caller }), started, durationMs, workspace: this.options.folders()[0]?.path }));
    return result;
  }

  /**
   * Starts, in the background, the sandbox brokers the served tools will need (one per folder with
   * a shell or imported tool, and an open-network one where such a tool is tagged \`network\`), so
   * their first calls do not wait for the runtime to start. A host calls it once start-up is over
   * and after each change; it does nothing without a sandbox, or with it off.
   */
  warmSandbox(): void {
    const sandbox = this.options.sandbox;
    if (sandbox === undefined || sandbox.setting === 'off') {
      return;
    }
    for (const file of this.snapshot.files) {
      const served = file.tools.filter((tool) => tool.state === 'active' && tool.definition.sandbox?.kind === 'os');
      if (served.length > 0) {
        sandbox.warm(file.loaded.folder.path, 'restricted');
      }
      if (served.some((tool) => tool.definition.tags.includes('network'))) {
        sandbox.warm(file.loaded.folder.path, 'open');
      }
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
    const changes = (await this.options.approval.changesOf?.(files.map(withCovers))) ?? new Map<string, readonly string[]>();
    await this.probeRequiredSandbox(files);
    this.lastLoad = { files, approvals, changes };
    const changed = this.swap(this.rebuild());
    const snapshot = this.snapshot;
    this.options.logger.info(
      `[registry] loaded ${snapshot.byName.size} tools (${snapshot.active.length} served) from ${files.length} plugin files in ${(performance.now() - started).toFixed(1)} ms`,
    );
    return changed;
  }

  /**
   * Under `required`, what is served depends on whether the sandbox is there: the first load with
   * a tool that needs it waits for the probe (started in the background otherwise).
   */
  private async probeRequiredSandbox(files: readonly PluginFile[]): Promise<void> {
    const sandbox = this.options.sandbox;
    if (sandbox?.setting !== 'required') {
      return;
    }
    const needing = files.find((file) => file.tools.some((tool) => tool.sandbox?.kind === 'os'));
    if (needing !== undefined) {
      await sandbox.ready(needing.folder.path);
    }
  }

  private rebuild(): RegistrySnapshot {
    const sandbox = this.options.sandbox;
    const status = sandbox?.status();
    const unserved =
      sandbox?.setting === 'required' && status?.state === 'unavailable'
        ? (definition: ToolDefinition): string | undefined => (definition.sandbox?.kind === 'os' ? requiredButUnavailable(status) : undefined)
        : undefined;
    return buildSnapshot({
      builtins: this.options.builtins,
      files: this.lastLoad.files,
      approvals: this.lastLoad.approvals,
      changes: this.lastLoad.changes,
      disabledTools: this.disabled,
      previous: this.snapshot,
      ...(unserved === undefined ? {} : { unserved }),
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

/** A loaded file as approval records it: with what each file it covers is now. */
function withCovers(loaded: PluginFile): PluginFile & { readonly covers: ReturnType<typeof coveredPartsOf> } {
  return { ...loaded, covers: coveredPartsOf(loaded) };
}
