/**
 * Which MCP server VS Code uses for this window's plugin tools, and how the tools view says it:
 * the one a committed `.mcp.json` or `.vscode/mcp.json` starts (then the extension publishes
 * none, so chat gets each tool once), or the extension's own. Pure (no `vscode` import).
 */
import type { ProjectServer } from '../../core/client-config/project-servers';

/** What serves the plugin tools to VS Code's chat. */
export type McpServing =
  /** The project's own file starts this server; `absoluteFile` is where, for a click. */
  | { readonly kind: 'project'; readonly server: ProjectServer; readonly absoluteFile: string }
  /** The extension's definition, under `label`. */
  | { readonly kind: 'extension'; readonly label: string }
  /** No server: Restricted Mode, no folder, MCP turned off, or nothing approved to serve. */
  | { readonly kind: 'none' };

/** The tools view's row for the server. */
export interface McpServerRow {
  readonly label: string;
  readonly description: string;
  readonly tooltip: string;
}

/** The row's label, which the e2e harness's row check also knows. */
export const MCP_SERVER_ROW_LABEL = 'MCP server';

/** The row for a server, or undefined when there is none to show. */
export function mcpServerRow(serving: McpServing): McpServerRow | undefined {
  switch (serving.kind) {
    case 'none':
      return undefined;
    case 'extension':
      return {
        label: MCP_SERVER_ROW_LABEL,
        description: `${serving.label}, started by this extension`,
        tooltip:
          `Chat gets the plugin tools from the server this extension publishes for the window ("${serving.label}" in MCP: List Servers), with this window's settings and history.\n\n` +
          'A committed .mcp.json or .vscode/mcp.json that starts workspace-tools-mcp is used instead of it, so no tool is served twice.',
      };
    case 'project': {
      const { server } = serving;
      return {
        label: MCP_SERVER_ROW_LABEL,
        description: `${server.name} from ${server.file}`,
        tooltip:
          `Chat gets the plugin tools from the server "${server.name}" that ${server.file} starts (line ${server.line}): ${server.commandLine}\n\n` +
          'This extension publishes no second one, so chat sees each tool once. That server reads no VS Code setting: Disable Tool does not reach it, and it records its calls in its own history, not in this window\'s.\n\n' +
          `Click to open ${server.file}.`,
      };
    }
  }
}
