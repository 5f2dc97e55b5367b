/**
 * The status bar item's words ("Tools 9 · 2 pending · 1 error") and the one notification about
 * plugin files that start waiting for approval. Pure (no `vscode` import): tested in plain Node.
 */
import { countOf } from './describe-file';

/** What the status bar counts. */
export interface StatusCounts {
  /** Tools offered to chat (active). */
  readonly activeTools: number;
  /** Plugin files waiting for approval, and the tools in them. */
  readonly pendingFiles: number;
  readonly pendingTools: number;
  /** Errors of plugin files as the Problems panel shows them (pluginErrorCount). */
  readonly errors: number;
  /** False in Restricted Mode. */
  readonly pluginsAllowed: boolean;
}

/** "Tools 9 · 2 pending · 1 error": the parts that are zero are left out, the tool count never. */
export function statusText(counts: StatusCounts): string {
  const parts = [`Tools ${counts.activeTools}`];
  if (counts.pendingFiles > 0) {
    parts.push(`${counts.pendingFiles} pending`);
  }
  if (counts.errors > 0) {
    parts.push(countOf(counts.errors, 'error'));
  }
  return parts.join(' · ');
}

/** The tooltip (and screen reader text): each count in words, and what a click does. */
export function statusTooltip(counts: StatusCounts): string {
  const lines = [`Workspace Tools: ${countOf(counts.activeTools, 'tool')} offered to chat`];
  if (!counts.pluginsAllowed) {
    lines.push('Restricted Mode: no tool from the workspace’s .vscode/tools is loaded');
  }
  if (counts.pendingFiles > 0) {
    lines.push(`${countOf(counts.pendingFiles, 'plugin file')} waiting for approval (${countOf(counts.pendingTools, 'tool')} not served until then)`);
  }
  if (counts.errors > 0) {
    lines.push(`${countOf(counts.errors, 'error')} in plugin files`);
  }
  lines.push('Click to open the tools view.');
  return lines.join('\n');
}

/** A plugin file as the notification logic sees it. */
export interface FileApprovalState {
  readonly file: string;
  /** It has tools held back until it is approved. */
  readonly pending: boolean;
  /** Its current content is approved. */
  readonly approved: boolean;
}

/**
 * Which plugin files *start* waiting for approval, to announce each once: a file that waits now
 * and did not wait since it was last approved (new, or approved and then changed). While it is
 * written (waiting, then broken by a half-done edit, then waiting again) it is not new again;
 * approving it ends that, and so does deleting it. Files saved from an editor of this window are
 * not announced (the Approve… lens is above their tools), and a file the user muted is never
 * announced again this session. The first update only records what is there: files already
 * waiting when the window opens are shown by the badge, the status bar and the Plugin Files view.
 */
export class NewlyPendingFiles {
  private started = false;
  /** Files that waited since they were last approved (or appeared). */
  private readonly waiting = new Set<string>();
  private readonly muted = new Set<string>();

  /** The files that started waiting since the last call, in the order given. */
  update(files: readonly FileApprovalState[], writtenHere: (file: string) => boolean = () => false): string[] {
    const present = new Set(files.map((file) => file.file));
    [...this.waiting].filter((file) => !present.has(file)).forEach((file) => this.waiting.delete(file));
    files.filter((file) => file.approved).forEach((file) => this.waiting.delete(file.file));
    const newly = files.filter((file) => file.pending && !this.waiting.has(file.file)).map((file) => file.file);
    newly.forEach((file) => this.waiting.add(file));
    const first = !this.started;
    this.started = true;
    return first ? [] : newly.filter((file) => !this.muted.has(file) && !writtenHere(file));
  }

  /** "Don't ask again for this file's edits in this session." */
  mute(file: string): void {
    this.muted.add(file);
  }
}

/** The notification's text for the files that started waiting (names as shown in the view). */
export function newlyPendingMessage(files: readonly { readonly pluginName: string; readonly displayPath: string }[]): string {
  const [first] = files;
  if (files.length === 1 && first !== undefined) {
    return `"${first.pluginName}" (${first.displayPath}) is new or changed: its tools wait for your approval and do not run until then.`;
  }
  return `${countOf(files.length, 'plugin file')} are new or changed: their tools wait for your approval and do not run until then.`;
}

/** What Reload found, for the message it shows when it is done. */
export interface ReloadCounts {
  /** Plugin files loaded (with or without problems). */
  readonly files: number;
  /** Tools offered to chat now (built-ins included). */
  readonly activeTools: number;
  readonly pendingFiles: number;
  /** Problems in plugin files (the Problems panel has each). */
  readonly problems: number;
  /** False in Restricted Mode. */
  readonly pluginsAllowed: boolean;
}

/**
 * The message Reload shows: what was loaded, in one sentence ("Reloaded 3 plugin files: 9 tools
 * offered to chat, 1 file waiting for approval, 2 problems."), so a click on Reload is answered
 * even when nothing in the view changes.
 */
export function reloadedMessage(counts: ReloadCounts): string {
  const offered = `${countOf(counts.activeTools, 'tool')} offered to chat`;
  if (!counts.pluginsAllowed) {
    return `Reloaded: ${offered}. Restricted Mode: no plugin file is loaded until you trust this workspace.`;
  }
  if (counts.files === 0) {
    return `Reloaded: no plugin files in .vscode/tools; ${offered}.`;
  }
  const parts = [
    offered,
    ...(counts.pendingFiles > 0 ? [`${countOf(counts.pendingFiles, 'file')} waiting for approval`] : []),
    ...(counts.problems > 0 ? [countOf(counts.problems, 'problem')] : []),
  ];
  return `Reloaded ${countOf(counts.files, 'plugin file')}: ${parts.join(', ')}.`;
}

/** A diagnostic as the count needs it: is it an error, and who reported it. */
export interface CountedDiagnostic {
  readonly error: boolean;
  readonly source: string | undefined;
}

/**
 * The errors the Problems panel shows for plugin files, for the status bar to say the same number:
 * every error on a plugin file (the extension's, and the JSON syntax errors VS Code's JSON language
 * service reports in an open one, which may be several where loading stops at the first), and the
 * extension's own (`source`) elsewhere (a task its import section cannot serve, on tasks.json).
 */
export function pluginErrorCount(byFile: Iterable<readonly [string, readonly CountedDiagnostic[]]>, pluginFiles: ReadonlySet<string>, source: string): number {
  let count = 0;
  for (const [file, diagnostics] of byFile) {
    count += diagnostics.filter((diagnostic) => diagnostic.error && (pluginFiles.has(file) || diagnostic.source === source)).length;
  }
  return count;
}
