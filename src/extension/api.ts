import type * as vscode from 'vscode';
import type { RegisteredTool } from '../core/registry/snapshot';
import type { ToolInfoData } from '../core/registry/tool-info';
import { toolInfoOf } from '../core/registry/tool-info';
import type { CallRecord } from '../core/history/call-record';
import type { PluginDiagnostic } from '../core/types';
import type { WorkspaceToolsService } from './service';
import type { ToolTestRunner } from './testing/tool-tests';

/** A tool as other extensions see it. */
export interface ToolInfo extends Omit<ToolInfoData, 'state'> {
  /** `pending`: its plugin file waits for the user's approval. */
  readonly state: 'active' | 'pending' | 'disabled';
  readonly enabled: boolean;
}

/** What `activate` returns: the extension API for other extensions (and the e2e tests). */
export interface WorkspaceToolsApi {
  listTools(): ToolInfo[];
  getTool(name: string): ToolInfo | undefined;
  reload(): Promise<void>;
  diagnostics(): PluginDiagnostic[];
  /** This workspace's most recent tool calls, newest first, as the History view shows them. */
  recentCalls(limit?: number): Promise<CallRecord[]>;
  /** The latest run of a tool's declared tests (Testing view or Run Tests): counts, if they ran. */
  testSummary(tool: string): { readonly passed: number; readonly failed: number } | undefined;
  readonly onDidChangeTools: vscode.Event<void>;
  /** Milliseconds spent in `activate`. */
  readonly activationMs: number;
}

/** The API over the service; it reads the service's current registry on every call. */
export function createApi(service: WorkspaceToolsService, tests: ToolTestRunner, activationMs: () => number): WorkspaceToolsApi {
  return {
    listTools: () => service.registry.all().map(toToolInfo),
    getTool: (name) => {
      const tool = service.registry.get(name);
      return tool === undefined ? undefined : toToolInfo(tool);
    },
    reload: () => service.reload(),
    diagnostics: () => [...service.registry.diagnostics()],
    recentCalls: async (limit = 20) => {
      // A call's record is queued just after its result: let it reach the file first.
      await new Promise((resolve) => setImmediate(resolve));
      await service.history.flush();
      return service.history.read(limit);
    },
    testSummary: (tool) => tests.summary(tool),
    onDidChangeTools: service.onDidChange,
    get activationMs() {
      return activationMs();
    },
  };
}

function toToolInfo(tool: RegisteredTool): ToolInfo {
  return { ...toolInfoOf(tool), state: tool.state === 'pending-approval' ? 'pending' : tool.state, enabled: tool.state !== 'disabled' };
}
