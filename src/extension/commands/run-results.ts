import * as vscode from 'vscode';
import { titleTime } from '../view-text/local-time';

/** The scheme of Run Tool's result documents. */
export const RESULT_SCHEME = 'workspace-tools-result';

/** How many results are kept for documents that VS Code asks for again (a reopened tab). */
const KEPT_RESULTS = 50;

/**
 * Run Tool's results as read-only documents of their own scheme: one document per run, never
 * dirty, so closing one asks nothing and no "Untitled-N" piles up. The text lives here (the
 * latest runs); a document asked for after its run was dropped says so.
 */
export class RunResults implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private runs = 0;

  /**
   * Keeps `text` as a new result of `tool`; returns the document's Uri. Its name is what the tab
   * shows: the tool and when it ran, in local time ("list-todos · 11:10:47 PM"); the run's number
   * in the query keeps two runs within a second apart.
   */
  add(tool: string, text: string, startedAt: Date): vscode.Uri {
    this.runs += 1;
    const uri = vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${tool} · ${titleTime(startedAt, vscode.env.language)}`, query: `run=${this.runs}` });
    this.texts.set(uri.toString(), text);
    for (const key of this.texts.keys()) {
      if (this.texts.size <= KEPT_RESULTS) {
        break;
      }
      this.texts.delete(key);
    }
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? 'This result is no longer kept (only the latest 50 are): run the tool again.';
  }

  /** Registers the provider for the scheme. */
  register(): vscode.Disposable {
    return vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, this);
  }
}
