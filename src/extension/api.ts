import type * as vscode from 'vscode';
import type { RegisteredPrompt, RegisteredTool } from '../core/registry/snapshot';
import type { ToolInfoData } from '../core/registry/tool-info';
import { toolInfoOf } from '../core/registry/tool-info';
import type { CallRecord } from '../core/history/call-record';
import type { PluginDiagnostic } from '../core/types';
import type { ResourceInfo } from '../core/resources/resource-catalog';
import { resourceInventory } from '../core/resources/resource-catalog';
import type { RegisterToolsOptions } from '../core/plugins/registered-tool-file';
import type { RegisteredTools } from './register-tools';
import type { WorkspaceToolsService } from './service';
import type { ToolTestRunner } from './testing/tool-tests';

/** A tool as other extensions see it. */
export interface ToolInfo extends Omit<ToolInfoData, 'state'> {
  /** `pending`: its plugin file waits for the user's approval. */
  readonly state: 'active' | 'pending' | 'disabled';
  readonly enabled: boolean;
}

/** A prompt of a plugin file as other extensions see it. */
export interface PromptInfo {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: readonly { readonly name: string; readonly required: boolean }[];
  /** `pending-approval`: its plugin file waits for the user's approval and serves no prompt. */
  readonly state: 'active' | 'pending-approval';
  readonly source: { readonly file: string; readonly line: number; readonly column: number };
}

/** What `activate` returns: the extension API for other extensions (and the e2e tests). */
export interface WorkspaceToolsApi {
  listTools(): ToolInfo[];
  getTool(name: string): ToolInfo | undefined;
  reload(): Promise<void>;
  diagnostics(): PluginDiagnostic[];
  /** The resources of plugin files (`resources` sections), in file order, each with its state and definition's place. */
  listResources(): ResourceInfo[];
  /** The prompts of plugin files (`prompts` sections), in file order, each with its state and definition's place. */
  listPrompts(): PromptInfo[];
  /** This workspace's most recent tool calls, newest first, as the History view shows them. */
  recentCalls(limit?: number): Promise<CallRecord[]>;
  /** The latest run of a tool's declared tests (Testing view or Run Tests): counts, if they ran. */
  testSummary(tool: string): { readonly passed: number; readonly failed: number } | undefined;
  readonly onDidChangeTools: vscode.Event<void>;
  /**
   * Registers tools of the calling extension: `definitions` are plugin-file tools (the `tools`
   * of a `.vscode/tools/*.json` file), checked by the same loader (throws with every problem),
   * shown under the extension's name, served to chat through the MCP server once the user
   * approves them. Disposing the result removes them.
   */
  registerTools(definitions: readonly object[], options: RegisterToolsOptions): vscode.Disposable;
  /** Milliseconds spent in `activate`. */
  readonly activationMs: number;
}

/** The API over the service; it reads the service's current registry on every call. */
export function createApi(service: WorkspaceToolsService, tests: ToolTestRunner, registered: RegisteredTools, activationMs: () => number): WorkspaceToolsApi {
  return {
    listTools: () => service.registry.all().map(toToolInfo),
    getTool: (name) => {
      const tool = service.registry.get(name);
      return tool === undefined ? undefined : toToolInfo(tool);
    },
    reload: () => service.reload(),
    diagnostics: () => [...service.registry.diagnostics()],
    listResources: () => resourceInventory(service.registry.files()),
    listPrompts: () => service.registry.allPrompts().map(toPromptInfo),
    recentCalls: async (limit = 20) => {
      await service.history.flush();
      return service.history.read(limit);
    },
    testSummary: (tool) => tests.summary(tool),
    onDidChangeTools: service.onDidChange,
    registerTools: (definitions, options) => registered.register(definitions, options),
    get activationMs() {
      return activationMs();
    },
  };
}

function toToolInfo(tool: RegisteredTool): ToolInfo {
  return { ...toolInfoOf(tool), state: tool.state === 'pending-approval' ? 'pending' : tool.state, enabled: tool.state !== 'disabled' };
}

function toPromptInfo({ definition, state }: RegisteredPrompt): PromptInfo {
  const { name, title, description, source } = definition;
  return {
    name,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    arguments: definition.arguments.map((argument) => ({ name: argument.name, required: argument.required })),
    state,
    source: { file: source.file, line: source.line, column: source.column },
  };
}
