import type { PluginFile } from '../plugins/plugin-file';
import type { PromptDefinition } from '../prompts';
import type { PluginDiagnostic, ToolDefinition } from '../types';
import type { ApprovalState } from '../approval/approval-policy';
import { duplicateResourceDiagnostics } from '../resources/resource-catalog';
import { checkComposition } from './composition';
import { estimateToolTokens } from './token-estimate';

/** Whether a tool is served: active, switched off by the user, or waiting for approval. */
export type ToolState = 'active' | 'disabled' | 'pending-approval';

/** A tool as the registry holds it. */
export interface RegisteredTool {
  readonly definition: ToolDefinition;
  readonly state: ToolState;
  /** Context tokens the tool costs the model (description + schema). */
  readonly tokenEstimate: number;
  /** Waiting for approval because these files its plugin file's approval covers changed (relative paths; empty: the plugin file itself). */
  readonly changed?: readonly string[];
}

/** A prompt as the registry holds it: served once its file is approved. */
export interface RegisteredPrompt {
  readonly definition: PromptDefinition;
  readonly state: 'active' | 'pending-approval';
}

/**
 * A plugin file as the registry holds it: the loaded file, whether its content is approved, and
 * its tools as registered (a tool whose name was taken earlier is refused with a diagnostic).
 */
export interface PluginFileStatus {
  /** The file as loaded: text, hash, version, description. */
  readonly loaded: PluginFile;
  readonly file: string;
  readonly pluginName: string;
  readonly contentHash: string;
  readonly approved: boolean;
  /** Whether the current content is approved, or was never approved, or changed since. */
  readonly approval: ApprovalState;
  readonly tools: readonly RegisteredTool[];
  /** Its prompts as registered (a prompt whose name another file took first is refused with a diagnostic). */
  readonly prompts: readonly RegisteredPrompt[];
  /** The file's own problems and the registry's (duplicate names across files). */
  readonly diagnostics: readonly PluginDiagnostic[];
}

/** One immutable view of every tool; reload builds a new one and swaps it in whole. */
export interface RegistrySnapshot {
  readonly builtins: readonly RegisteredTool[];
  readonly files: readonly PluginFileStatus[];
  /** Every registered tool by name, in registration order. */
  readonly byName: ReadonlyMap<string, RegisteredTool>;
  /** The served tools (state active), in registration order. */
  readonly active: readonly ToolDefinition[];
  /** Every registered prompt by name, in file order. */
  readonly prompts: ReadonlyMap<string, RegisteredPrompt>;
  /** The served prompts (their file approved), in file order. */
  readonly activePrompts: readonly PromptDefinition[];
  /** Equal for two snapshots that serve and show the same thing. */
  readonly fingerprint: string;
}

/** What a snapshot is built from: the tool sources and the user's choices about them. */
export interface SnapshotInput {
  readonly builtins: readonly ToolDefinition[];
  readonly files: readonly PluginFile[];
  /** The approval state of each file's current content, by file path (absent: new). */
  readonly approvals: ReadonlyMap<string, ApprovalState>;
  /** For a changed file, the covered files that changed since its approval (ApprovalPolicy.changesOf). */
  readonly changes?: ReadonlyMap<string, readonly string[]>;
  readonly disabledTools: ReadonlySet<string>;
  /** The snapshot this one replaces: unchanged definitions keep their token estimates. */
  readonly previous?: RegistrySnapshot;
  /**
   * Why a plugin tool cannot be served at all on this host (its programs need the OS sandbox,
   * which `required` asks for and this machine lacks), or undefined. Such a tool keeps its name
   * and is in its file's approval, but is not registered: a problem of its file says why.
   */
  readonly unserved?: (definition: ToolDefinition) => string | undefined;
}

/**
 * Builds a snapshot: built-ins first, then plugin files in the order given, so the first
 * registration of a name wins predictably. A later plugin tool with a taken name is refused with
 * a diagnostic naming both places; a later built-in (a window's extension tool named like one of
 * ours) is not served (claimNames).
 */
export function buildSnapshot(input: SnapshotInput): RegistrySnapshot {
  const { claimed, duplicates } = claimNames(input);
  // References between tools (steps calling tools, aliases) need every tool known first.
  const composition = checkComposition([...claimed.keys()]);
  const byName = new Map<string, RegisteredTool>();
  const register = (raw: ToolDefinition, approved: boolean, changed?: readonly string[]): RegisteredTool | undefined => {
    if (composition.refused.has(raw)) {
      return undefined;
    }
    const definition = composition.resolved.get(raw) ?? raw;
    const before = input.previous?.byName.get(definition.name);
    const tokenEstimate = before?.definition === definition ? before.tokenEstimate : estimateToolTokens(definition);
    const tool = { definition, state: stateOf(definition, approved, input.disabledTools), tokenEstimate, ...(approved || changed === undefined ? {} : { changed }) };
    byName.set(definition.name, tool);
    return tool;
  };
  const builtins = input.builtins.flatMap((definition) => (claimed.has(definition) ? (register(definition, true) ?? []) : []));
  const resourceDuplicates = duplicateResourceDiagnostics(input.files.map((load) => ({ file: load.file, approved: false, loaded: load })));
  const prompts = new Map<string, RegisteredPrompt>();
  const files = input.files.map((load) => {
    const approval = input.approvals.get(load.file) ?? 'new';
    const approved = approval === 'approved';
    const diagnostics = [...load.diagnostics, ...(duplicates.get(load) ?? []), ...(resourceDuplicates.get(load.file) ?? [])];
    const tools: RegisteredTool[] = [];
    for (const definition of load.tools) {
      if (claimed.get(definition) !== load) {
        continue;
      }
      const refusal = composition.refused.get(definition);
      if (refusal !== undefined) {
        diagnostics.push(refusal);
      }
      const unserved = input.unserved?.(definition);
      if (unserved !== undefined) {
        const source = definition.source;
        diagnostics.push({ file: load.file, tool: definition.name, line: source.kind === 'plugin' ? source.line : 1, column: source.kind === 'plugin' ? source.column : 1, message: unserved });
        continue;
      }
      const tool = register(definition, approved, approval === 'changed' ? input.changes?.get(load.file) : undefined);
      if (tool !== undefined) {
        tools.push(tool);
      }
    }
    const filePrompts = registerPrompts(load, approved, prompts, diagnostics);
    return { loaded: load, file: load.file, pluginName: load.pluginName, contentHash: load.contentHash, approved, approval, tools, prompts: filePrompts, diagnostics };
  });
  const all = [...byName.values()];
  return {
    builtins,
    files,
    byName,
    active: all.filter((tool) => tool.state === 'active').map((tool) => tool.definition),
    prompts,
    activePrompts: [...prompts.values()].filter((prompt) => prompt.state === 'active').map((prompt) => prompt.definition),
    fingerprint: fingerprintOf(builtins, files),
  };
}

/**
 * Who gets each name: built-ins first (then a window's editor and extension tools), then plugin
 * files in the order given (the first wins); each later plugin tool with a taken name gets a
 * diagnostic naming both places, a later built-in is not served.
 */
function claimNames(input: SnapshotInput): { claimed: Map<ToolDefinition, PluginFile | undefined>; duplicates: Map<PluginFile, PluginDiagnostic[]> } {
  const claimed = new Map<ToolDefinition, PluginFile | undefined>();
  const owners = new Map<string, ToolDefinition>();
  const duplicates = new Map<PluginFile, PluginDiagnostic[]>();
  for (const definition of input.builtins) {
    // Among built-ins too the first wins: a VS Code window's tools come after this server's own
    // (workspace-registry.ts extraTools), and another extension's tool named `git-status` must
    // not take the built-in's name over (test/unit/security/editor-bridge-names.test.ts).
    if (!owners.has(definition.name)) {
      claimed.set(definition, undefined);
      owners.set(definition.name, definition);
    }
  }
  for (const load of input.files) {
    for (const definition of load.tools) {
      const existing = owners.get(definition.name);
      if (existing === undefined) {
        claimed.set(definition, load);
        owners.set(definition.name, definition);
      } else {
        duplicates.set(load, [...(duplicates.get(load) ?? []), duplicateDiagnostic(load.file, definition, existing)]);
      }
    }
  }
  return { claimed, duplicates };
}

/**
 * Registers a file's prompts in `registered` (the first file of a name wins, in file order);
 * each later one gets a diagnostic, in `diagnostics`, naming where the name was taken.
 */
function registerPrompts(load: PluginFile, approved: boolean, registered: Map<string, RegisteredPrompt>, diagnostics: PluginDiagnostic[]): RegisteredPrompt[] {
  const mine: RegisteredPrompt[] = [];
  for (const definition of load.prompts ?? []) {
    const taken = registered.get(definition.name);
    if (taken !== undefined) {
      const { file, line, column } = taken.definition.source;
      const message = `duplicate prompt name "${definition.name}": already defined by ${file}:${line}:${column}; this one is not loaded (rename it)`;
      diagnostics.push({ file: load.file, prompt: definition.name, line: definition.source.line, column: definition.source.column, message });
      continue;
    }
    const prompt: RegisteredPrompt = { definition, state: approved ? 'active' : 'pending-approval' };
    registered.set(definition.name, prompt);
    mine.push(prompt);
  }
  return mine;
}

/** Whether a file has anything to serve once approved: a tool, a prompt or a resource that loads. */
export function servesAnything(file: Pick<PluginFileStatus, 'tools' | 'prompts' | 'loaded'>): boolean {
  return file.tools.length > 0 || file.prompts.length > 0 || (file.loaded.resources?.length ?? 0) > 0;
}

/** Whether a file has tools, prompts or resources that are held back until its current content is approved. */
export function awaitsApproval(file: PluginFileStatus): boolean {
  return !file.approved && servesAnything(file);
}

/** The snapshot before anything loaded. */
export const EMPTY_SNAPSHOT: RegistrySnapshot = buildSnapshot({
  builtins: [],
  files: [],
  approvals: new Map(),
  disabledTools: new Set(),
});

function stateOf(definition: ToolDefinition, approved: boolean, disabled: ReadonlySet<string>): ToolState {
  if (!approved) {
    return 'pending-approval';
  }
  return disabled.has(definition.name) ? 'disabled' : 'active';
}

/** Where a tool was defined, in words: "the built-in tool" or "file:line:col". */
export function describePlace(definition: ToolDefinition): string {
  const source = definition.source;
  if (source.kind === 'builtin') {
    return 'the built-in tool';
  }
  // An imported tool: its import entry, and where the task itself is declared.
  const task = source.declared === undefined ? '' : ` (imported from ${source.declared.file}:${source.declared.line}:${source.declared.column})`;
  return `${source.file}:${source.line}:${source.column}${task}`;
}

function duplicateDiagnostic(file: string, later: ToolDefinition, earlier: ToolDefinition): PluginDiagnostic {
  const line = later.source.kind === 'plugin' ? later.source.line : 1;
  const column = later.source.kind === 'plugin' ? later.source.column : 1;
  const declared = later.source.kind === 'plugin' ? later.source.declared : undefined;
  const imported = declared === undefined ? '' : ` (imported from ${declared.file}:${declared.line}:${declared.column})`;
  return {
    file,
    tool: later.name,
    line,
    column,
    message: `duplicate tool name "${later.name}": already defined by ${describePlace(earlier)}; this one${imported} is not loaded (${imported === '' ? 'rename it' : 'exclude the task or give the import entry a prefix'})`,
  };
}

function fingerprintOf(builtins: readonly RegisteredTool[], files: readonly PluginFileStatus[]): string {
  const parts = builtins.map((tool) => `${tool.definition.name}:${tool.state}`);
  for (const file of files) {
    parts.push(`${file.file}#${file.contentHash}:${file.approval}:${file.diagnostics.length}`);
    parts.push(...file.tools.map((tool) => `${tool.definition.name}:${tool.state}`));
    parts.push(...file.prompts.map((prompt) => `prompt ${prompt.definition.name}:${prompt.state}`));
  }
  return parts.join('|');
}
