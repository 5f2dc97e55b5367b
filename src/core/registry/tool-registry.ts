import type { CallOptions, PluginDiagnostic, ToolDefinition } from '../types';
import type { ApprovalSubject } from '../approval/approval-subject';
import { CoalescedReload } from './coalesced-reload';
import type { CallPreview, CallResult, PipelineSources } from './call-pipeline';
import { previewCall } from './call-pipeline';
import { runRecordedCall } from './recorded-call';
import { Emitter } from './emitter';
import type { Event } from './emitter';
import { InputValidator } from './input-validator';
import type { Completion, CompletionContext } from '../completions';
import type { PromptDefinition, RenderedPrompt } from '../prompts';
import { completePromptArgument, getPrompt } from './prompt-requests';
import { completeTemplateVariable } from '../resources/complete-variable';
import { servedResources } from '../resources/resource-catalog';
import type { PluginFileStatus, RegisteredPrompt, RegisteredTool, RegistrySnapshot } from './snapshot';
import { EMPTY_SNAPSHOT, buildSnapshot } from './snapshot';
import { ValidatorWarmUp } from './validator-warm-up';
import type { PluginLoad } from './plugin-load';
import { NO_PLUGIN_LOAD, loadPlugins } from './plugin-load';
import { approveLoadedFile, loadedApprovalSubject } from './file-approval';
import type { RegistryOptions } from './registry-options';
import { unservedWithoutSandbox, warmSandboxFor } from './sandbox-serving';

export type { PluginLoader, RegistryOptions } from './registry-options';

/**
 * The one door to what is served: it holds the snapshot of every tool, prompt and plugin file
 * and answers every door's question from it. The snapshot is immutable and a load replaces it
 * whole (a call in flight keeps the definition it started with; built-ins are carried over).
 * What it delegates: loading (plugin-load.ts), calls (call-pipeline.ts, recorded-call.ts),
 * approval (file-approval.ts), the sandbox (sandbox-serving.ts), prompts (prompt-requests.ts).
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
  // A failed load keeps the tools that were there and is logged.
  private readonly reloads = new CoalescedReload(() => this.load(), (error) => this.loadFailed(error));
  /** The last plugin load, kept so enabling a tool rebuilds without touching the disk. */
  private lastLoad: PluginLoad = NO_PLUGIN_LOAD;

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
   * The values that complete `argument` of the served prompt `name`, once the first load is done.
   * Throws as getPrompt does, and CompletionError (core/completions) when its source fails.
   */
  async completePrompt(request: { readonly name: string; readonly argument: string; readonly prefix: string }, signal: AbortSignal): Promise<Completion> {
    const context = await this.completionContext(signal);
    return completePromptArgument(this.snapshot, request, context);
  }

  /**
   * The values that complete `variable` of the served resource template `uriTemplate`. Throws
   * UnknownTemplateVariableError for one not served, CompletionError when its source fails.
   */
  async completeResourceVariable(request: { readonly uriTemplate: string; readonly variable: string; readonly prefix: string }, signal: AbortSignal): Promise<Completion> {
    const context = await this.completionContext(signal);
    return completeTemplateVariable(servedResources(this.files()), request, context);
  }

  /** What a completion source runs with, once the first load is done (so what it completes is served). */
  private async completionContext(signal: AbortSignal): Promise<Omit<CompletionContext, 'folder'>> {
    await this.initialize();
    const { env, logger, limits } = this.options;
    return { env, logger, limits: limits(), signal };
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
   * Approves what a plugin file runs as loaded, then reloads so its tools are served; refused when
   * it is no longer what the user was shown (`expectedContentHash`, file-approval.ts).
   */
  async approve(file: string, expectedContentHash?: string): Promise<void> {
    await approveLoadedFile(this.snapshot.files, this.options.approval, file, expectedContentHash);
    await this.reload();
  }

  /** What approving `file` would approve, from the compiled tools; undefined for a file not loaded. */
  approvalSubject(file: string): ApprovalSubject | undefined {
    return loadedApprovalSubject(this.snapshot.files, file);
  }

  /**
   * Runs a call once the first load is done and records it (recorded-call.ts). A tool that is not
   * served is refused (CallResult.refusal), so a door needs no look-up of its own; never throws.
   */
  call(name: string, input: unknown, options: AbortSignal | CallOptions): Promise<CallResult> {
    const callOptions = options instanceof AbortSignal ? { signal: options } : options;
    return runRecordedCall(this.pipeline, this.options.history, () => this.initialize(), { name, input, options: callOptions });
  }

  /**
   * Starts the sandbox brokers the served tools will need in the background (sandbox-serving.ts),
   * so their first calls do not wait for them. A host calls it after start-up and each change.
   */
  warmSandbox(): void {
    warmSandboxFor(this.options.sandbox, this.snapshot.files);
  }

  dispose(): void {
    this.warmUp.dispose();
    this.changeEmitter.dispose();
  }

  private async load(): Promise<boolean> {
    const started = performance.now();
    this.lastLoad = await loadPlugins(this.options);
    const changed = this.swap(this.rebuild());
    const { byName, active } = this.snapshot;
    this.options.logger.info(`[registry] loaded ${byName.size} tools (${active.length} served) from ${this.lastLoad.files.length} plugin files in ${(performance.now() - started).toFixed(1)} ms`);
    return changed;
  }

  private loadFailed(error: unknown): false {
    this.options.logger.error(`[registry] loading plugin files failed; keeping the previous tools: ${String(error)}`);
    return false;
  }

  private rebuild(): RegistrySnapshot {
    const unserved = unservedWithoutSandbox(this.options.sandbox);
    return buildSnapshot({ builtins: this.options.builtins, ...this.lastLoad, disabledTools: this.disabled, previous: this.snapshot, ...(unserved === undefined ? {} : { unserved }) });
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
