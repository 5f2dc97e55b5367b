import * as vscode from 'vscode';
import type { WorkspaceToolsService } from '../service';
import { raiseWalkthroughEvent } from '../walkthrough-events';
import type { PluginFilesState } from './nodes';
import { PLUGIN_FILES_CONTEXT_KEY, PLUGIN_FILES_VIEW_ID, pluginFileCounts, pluginFilesState } from './nodes';

/**
 * The Plugin Files view above the tools view: it lists nothing, so VS Code shows its welcome
 * content (`contributes.viewsWelcome`), picked by the context key `workspaceTools.pluginFiles`:
 * no plugin files yet, Restricted Mode, or files waiting for approval. The view itself is shown
 * only in those states. The tools view cannot carry that content: it always lists the built-ins,
 * and VS Code shows welcome content only in an empty view. The same updates raise the
 * walkthrough's events for a plugin file added and a plugin file approved.
 */
export function registerPluginFilesView(context: vscode.ExtensionContext, service: WorkspaceToolsService, log: vscode.LogOutputChannel): void {
  const empty: vscode.TreeDataProvider<never> = { getTreeItem: (element) => element, getChildren: () => [] };
  let shown: PluginFilesState | undefined;
  let counts: ReturnType<typeof pluginFileCounts> | undefined;
  // Only a loaded registry says whether there are files: the service's change event comes after
  // each load (the first included), and until then the view stays hidden. Nothing here starts a
  // load (activation must not wait for plugin files).
  let loaded = false;
  const update = (): void => {
    const state = { hasFolder: (vscode.workspace.workspaceFolders?.length ?? 0) > 0, pluginsAllowed: service.pluginsAllowed, files: service.registry.files() };
    const now = pluginFileCounts(state);
    if (counts !== undefined && now.files > counts.files) {
      void raiseWalkthroughEvent('pluginFileAdded');
    }
    if (counts !== undefined && now.approved > counts.approved) {
      void raiseWalkthroughEvent('fileApproved');
    }
    counts = now;
    const next = pluginFilesState(state);
    if (next !== shown) {
      shown = next;
      log.debug(`[tree] plugin files: ${next}`);
      vscode.commands.executeCommand('setContext', PLUGIN_FILES_CONTEXT_KEY, next).then(undefined, (error: unknown) => {
        log.warn(`[tree] could not set ${PLUGIN_FILES_CONTEXT_KEY}: ${String(error)}`);
      });
    }
  };
  context.subscriptions.push(
    vscode.window.registerTreeDataProvider(PLUGIN_FILES_VIEW_ID, empty),
    service.onDidChange(() => {
      loaded = true;
      update();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      if (loaded) {
        update();
      }
    }),
  );
}
