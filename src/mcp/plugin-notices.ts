/**
 * What a terminal user must hear about plugin files: every problem (`path:line:column: message`)
 * and every file that waits for approval, with the exact command that approves it. The server
 * prints each once when it appears (on stderr, and to an MCP client that turned logging on).
 */
import { commandLineOf, quoteArg, shellFlavorFor } from '../core/client-config/command-line';
import type { ServerLauncher } from '../core/client-config/launch';
import { launchCommand } from '../core/client-config/launch';
import { hostPlatform } from '../core/platform/platform';
import type { PluginFileStatus } from '../core/registry/snapshot';
import { awaitsApproval } from '../core/registry/snapshot';
import type { ToolRegistry } from '../core/registry/tool-registry';
import { formatDiagnostic } from '../core/types';

/** One message about a plugin file; `key` tells a repeat from a new one. */
export interface PluginNotice {
  readonly key: string;
  readonly text: string;
}

/** The command line that approves `file`, runnable as printed (this script, these folders). */
export type ApproveCommand = (file: string) => string;

/**
 * `<launcher> approve --workspace ... [--approvals FILE] <file>`, quoted for the platform's shell:
 * `npx -y workspace-tools-mcp@<version> approve ...` for a server npx started, else `node <script>`.
 */
export function approveCommandFor(launcher: ServerLauncher, workspaces: readonly string[], approvalsFile?: string): ApproveCommand {
  const flavor = shellFlavorFor(hostPlatform().name);
  const args = ['approve', ...workspaces.flatMap((folder) => ['--workspace', folder]), ...(approvalsFile === undefined ? [] : ['--approvals', approvalsFile])];
  const fixed = commandLineOf(launchCommand(launcher, args), flavor);
  return (file) => `${fixed} ${quoteArg(file, flavor)}`;
}

/** The notices for the registry's current plugin files, in file order. */
export function pluginNotices(files: readonly PluginFileStatus[], approveCommand: ApproveCommand): PluginNotice[] {
  return files.flatMap((file) => [
    ...file.diagnostics.map((diagnostic) => {
      const text = formatDiagnostic(diagnostic);
      return { key: `${file.contentHash}\0${text}`, text };
    }),
    ...(awaitsApproval(file) ? [pendingNotice(file, approveCommand)] : []),
  ]);
}

function pendingNotice(file: PluginFileStatus, approveCommand: ApproveCommand): PluginNotice {
  const why = file.approval === 'changed' ? 'changed since it was approved' : 'is new';
  const names = file.tools.map((tool) => tool.definition.name).join(', ');
  const held = file.tools.length === 1 ? `its tool ${names} is not served` : file.tools.length === 0 ? 'what it defines is not served' : `its ${file.tools.length} tools (${names}) are not served`;
  return {
    key: `${file.file}\0${file.contentHash}\0pending`,
    text: `${file.file} ${why} and waits for approval; ${held}. Review and approve it with:\n  ${approveCommand(file.file)}`,
  };
}

/**
 * Calls `emit` with each notice the first time it appears after a load. A notice that goes away
 * and comes back (a file broken again) is emitted again. `replay` re-sends the current ones (to
 * a client that turned logging on late).
 */
export function reportPluginNotices(
  registry: ToolRegistry,
  approveCommand: ApproveCommand,
  emit: (notice: PluginNotice) => void,
): { readonly report: () => void; readonly current: () => readonly PluginNotice[]; readonly dispose: () => void } {
  let shown = new Set<string>();
  const current = (): PluginNotice[] => pluginNotices(registry.files(), approveCommand);
  const report = (): void => {
    const notices = current();
    for (const notice of notices) {
      if (!shown.has(notice.key)) {
        emit(notice);
      }
    }
    shown = new Set(notices.map((notice) => notice.key));
  };
  const subscription = registry.onDidChange(report);
  return { report, current, dispose: () => subscription.dispose() };
}
