/**
 * The plugin file in the editor: a CodeLens above each tool (Run, Approve… while its file waits,
 * Run Tests when it declares tests), a hover on each `{{placeholder}}` that shows the input
 * property it reads, and quick fixes (a misspelt property, a piped string command to a script). What a tool is and where comes from plugin-outline.ts (the document's
 * current text); what can be done with it comes from the registry (the file as loaded).
 */
import * as vscode from 'vscode';
import type { PluginFileStatus } from '../../core/registry/snapshot';
import { awaitsApproval } from '../../core/registry/snapshot';
import { loadedFile } from '../commands/targets';
import type { WorkspaceToolsService } from '../service';
import { TOOLS_COMMANDS } from '../tree/nodes';
import { LensAskWatch } from './lens-asks';
import type { ToolOutline } from './plugin-outline';
import { outlinePluginFile, placeholderAt, placeholderHover } from './plugin-outline';
import { quickFixesAt } from './quick-fixes';
import { PROBLEM_SOURCE, isPluginDocument } from '../problems';

/** Plugin files are JSON with comments in .vscode/tools; files of extra plugin directories are plain JSON. */
const SELECTOR: vscode.DocumentSelector = [
  { scheme: 'file', language: 'jsonc' },
  { scheme: 'file', language: 'json' },
];

/** A lens is one line above the code: a longer problem is cut there (the tooltip has it whole). */
const MAX_LENS_TEXT = 80;

/** Registers the CodeLens and hover providers; the lenses follow every change of the tools. */
export function registerPluginEditor(context: vscode.ExtensionContext, service: WorkspaceToolsService): void {
  const lenses = new PluginCodeLenses(service);
  context.subscriptions.push(
    lenses,
    service.onDidChange(() => lenses.refresh()),
    vscode.window.onDidChangeVisibleTextEditors((editors) => lenses.shown(editors)),
    vscode.workspace.onDidCloseTextDocument((document) => lenses.closed(document)),
    vscode.languages.registerCodeLensProvider(SELECTOR, lenses),
    vscode.languages.registerHoverProvider(SELECTOR, new PlaceholderHovers(service)),
    vscode.languages.registerCodeActionsProvider(SELECTOR, new PluginQuickFixes(service), { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }),
  );
}

/** The quick fixes of quick-fixes.ts at the cursor (or at the start of the selection). */
class PluginQuickFixes implements vscode.CodeActionProvider {
  constructor(private readonly service: WorkspaceToolsService) {}

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    // A plugin file by where it is, loaded or not (a quick fix only edits text: no approval involved).
    if (!isPluginDocument(document, this.service)) {
      return [];
    }
    const fixes = quickFixesAt(document.getText(), document.offsetAt(range.start));
    return fixes.map((fix) => {
      const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
      action.edit = new vscode.WorkspaceEdit();
      const ranges = fix.edits.map((edit) => new vscode.Range(document.positionAt(edit.offset), document.positionAt(edit.offset + edit.length)));
      fix.edits.forEach((edit, index) => action.edit?.replace(document.uri, ranges[index] ?? range, edit.newText));
      // The problem it fixes (the light bulb and the Problems panel pair them); the only fix there is the one to take.
      action.diagnostics = context.diagnostics.filter((diagnostic) => diagnostic.source === PROBLEM_SOURCE && ranges.some((edited) => edited.intersection(diagnostic.range) !== undefined));
      action.isPreferred = fixes.length === 1 && action.diagnostics.length > 0;
      return action;
    });
  }
}

/** The loaded plugin file a document is, if it is one (plugins allowed, file loaded). */
function pluginFileOf(document: vscode.TextDocument, service: WorkspaceToolsService): PluginFileStatus | undefined {
  return service.pluginsAllowed ? loadedFile(service, document.uri.fsPath) : undefined;
}

class PluginCodeLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  /** VS Code may not ask for a file shown and left at once (lens-asks.ts): asked again until it does. */
  private readonly asks = new LensAskWatch({ nudge: () => this.changed.fire(), shown: () => this.shownPluginFiles(vscode.window.visibleTextEditors) });
  /** The files shown in an editor at the last change of the visible editors. */
  private visible = new Set<string>();

  constructor(private readonly service: WorkspaceToolsService) {
    this.shown(vscode.window.visibleTextEditors);
  }

  /** The tools changed: every plugin file in an editor gets its lenses again. */
  refresh(): void {
    this.changed.fire();
    this.asks.expect(this.shownPluginFiles(vscode.window.visibleTextEditors));
  }

  /** The visible editors changed: the plugin files that just came into view should be asked for. */
  shown(editors: readonly vscode.TextEditor[]): void {
    const now = new Set(this.shownPluginFiles(editors));
    this.asks.expect([...now].filter((uri) => !this.visible.has(uri)));
    this.visible = now;
  }

  closed(document: vscode.TextDocument): void {
    this.asks.forget(document.uri.toString());
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    this.asks.asked(document.uri.toString());
    const file = pluginFileOf(document, this.service);
    if (file === undefined) {
      return [];
    }
    return outlinePluginFile(document.getText()).flatMap((tool) => {
      const position = document.positionAt(tool.offset);
      const range = new vscode.Range(position, position);
      return this.commandsFor(tool, file, document).map((command) => new vscode.CodeLens(range, command));
    });
  }

  /** What can be done with one tool now. */
  private commandsFor(tool: ToolOutline, file: PluginFileStatus, document: vscode.TextDocument): vscode.Command[] {
    const uri = document.uri;
    const registered = this.service.registry.get(tool.name);
    const fromThisFile = registered?.definition.source.kind === 'plugin' && registered.definition.source.file === file.file;
    if (!fromThisFile) {
      // The tool's own problem; else, in a saved file, the file's (a syntax error loads no tool)
      const own = file.diagnostics.find((diagnostic) => diagnostic.tool === tool.name)?.message;
      const fileWide = document.isDirty ? undefined : file.diagnostics.find((diagnostic) => diagnostic.tool === undefined)?.message;
      const problem = own ?? fileWide ?? 'save the file to load it';
      // No command: a lens that only says why (save the file, or fix the problem it names).
      return [{ title: `$(warning) Not loaded: ${problem.length > MAX_LENS_TEXT ? `${problem.slice(0, MAX_LENS_TEXT)}…` : problem}`, tooltip: problem, command: '' }];
    }
    if (awaitsApproval(file)) {
      return [{ title: '$(shield) Approve…', tooltip: 'Review what this file runs, then serve its tools', command: TOOLS_COMMANDS.approveFile, arguments: [uri] }];
    }
    if (registered.state === 'disabled') {
      return [{ title: '$(eye) Enable', tooltip: `"${tool.name}" is disabled`, command: TOOLS_COMMANDS.enableTool, arguments: [tool.name] }];
    }
    const run: vscode.Command = { title: '$(play) Run', tooltip: `Run ${tool.name}, asking for each parameter`, command: TOOLS_COMMANDS.runTool, arguments: [tool.name] };
    const tests: vscode.Command = { title: '$(beaker) Run Tests', tooltip: `Run the tests of ${tool.name}`, command: TOOLS_COMMANDS.runTests, arguments: [tool.name] };
    return tool.hasTests ? [run, tests] : [run];
  }

  /** The plugin files (URI strings) these editors show. */
  private shownPluginFiles(editors: readonly vscode.TextEditor[]): string[] {
    return editors.filter((editor) => isPluginDocument(editor.document, this.service)).map((editor) => editor.document.uri.toString());
  }

  dispose(): void {
    this.asks.dispose();
    this.changed.dispose();
  }
}

class PlaceholderHovers implements vscode.HoverProvider {
  constructor(private readonly service: WorkspaceToolsService) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    if (pluginFileOf(document, this.service) === undefined) {
      return undefined;
    }
    const found = placeholderAt(outlinePluginFile(document.getText()), document.offsetAt(position));
    if (found === undefined) {
      return undefined;
    }
    const { tool, placeholder } = found;
    // As written; else as loaded (an alias's schema is its base's).
    const loaded = this.service.registry.get(tool.name)?.definition.inputSchema;
    const properties = tool.properties ?? loaded?.properties;
    const required = tool.properties === undefined ? (loaded?.required ?? []) : tool.required;
    const range = new vscode.Range(document.positionAt(placeholder.offset), document.positionAt(placeholder.offset + placeholder.length));
    return new vscode.Hover(new vscode.MarkdownString(placeholderHover(placeholder.name, properties, required)), range);
  }
}
