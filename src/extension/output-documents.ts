/**
 * Whole outputs of large results (see core/output/output-store.ts) as read-only documents:
 * `workspace-tools-output://output/<id>` reads the kept file through the service's store.
 */
import * as vscode from 'vscode';
import { OUTPUT_URI_PREFIX } from '../core/output/output-store';
import type { WorkspaceToolsService } from './service';

export const OUTPUT_SCHEME = 'workspace-tools-output';

export function registerOutputDocuments(context: vscode.ExtensionContext, service: WorkspaceToolsService): void {
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(OUTPUT_SCHEME, {
      provideTextDocumentContent: async (uri) => {
        const original = `${OUTPUT_URI_PREFIX}${uri.path.replace(/^\/(output\/)?/, '')}`;
        try {
          return (await service.outputs.read(original)).text;
        } catch (error) {
          return error instanceof Error ? error.message : String(error);
        }
      },
    }),
  );
}
