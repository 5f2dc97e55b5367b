/**
 * The editor tools' questions (core/editor-bridge/editor-queries.ts) asked of VS Code: its
 * language features through the `vscode.execute...Provider` commands, the Problems panel, the
 * tabs. Only the VS Code API is here; what the answers become is core's.
 */
import * as vscode from 'vscode';
import type {
  EditorDiagnostic,
  EditorDocumentSymbol,
  EditorFileDiagnostics,
  EditorLocation,
  EditorOpenFiles,
  EditorPosition,
  EditorQueries,
  EditorRange,
  EditorSeverity,
  EditorSymbol,
} from '../../core/editor-bridge/editor-queries';

const SEVERITIES: Readonly<Record<vscode.DiagnosticSeverity, EditorSeverity>> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'information',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

/** VS Code as the editor tools ask it. */
export function vscodeEditorQueries(): EditorQueries {
  return {
    diagnostics: (file) => {
      const entries: Array<[vscode.Uri, readonly vscode.Diagnostic[]]> = file === undefined ? vscode.languages.getDiagnostics() : [[vscode.Uri.file(file), vscode.languages.getDiagnostics(vscode.Uri.file(file))]];
      return Promise.resolve(entries.filter(([uri]) => uri.scheme === 'file').map(([uri, diagnostics]): EditorFileDiagnostics => ({ file: uri.fsPath, diagnostics: diagnostics.map(diagnosticOf) })));
    },
    definition: async (file, position) => locationsOf(await vscode.commands.executeCommand<Array<vscode.Location | vscode.LocationLink> | undefined>('vscode.executeDefinitionProvider', vscode.Uri.file(file), positionOf(position))),
    references: async (file, position) => locationsOf(await vscode.commands.executeCommand<vscode.Location[] | undefined>('vscode.executeReferenceProvider', vscode.Uri.file(file), positionOf(position))),
    workspaceSymbols: async (query) => {
      const symbols = (await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', query)) ?? [];
      return symbols.filter((symbol) => symbol.location.uri.scheme === 'file').map(
        (symbol): EditorSymbol => ({
          name: symbol.name,
          kind: vscode.SymbolKind[symbol.kind],
          ...(symbol.containerName === '' ? {} : { containerName: symbol.containerName }),
          location: { file: symbol.location.uri.fsPath, range: rangeOf(symbol.location.range) },
        }),
      );
    },
    documentSymbols: async (file) => {
      const symbols = (await vscode.commands.executeCommand<Array<vscode.DocumentSymbol | vscode.SymbolInformation> | undefined>('vscode.executeDocumentSymbolProvider', vscode.Uri.file(file))) ?? [];
      return symbols.map(documentSymbolOf);
    },
    hover: async (file, position) => {
      const hovers = (await vscode.commands.executeCommand<vscode.Hover[] | undefined>('vscode.executeHoverProvider', vscode.Uri.file(file), positionOf(position))) ?? [];
      return hovers.flatMap((hover) => hover.contents.map(markdownOf));
    },
    openFiles: (): Promise<EditorOpenFiles> => {
      const open = vscode.window.tabGroups.all
        .flatMap((group) => group.tabs)
        .flatMap((tab) => (tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === 'file' ? [{ uri: tab.input.uri, dirty: tab.isDirty }] : []));
      const languageOf = (uri: vscode.Uri): string | undefined => vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString())?.languageId;
      const seen = new Set<string>();
      const files = open
        .filter(({ uri }) => !seen.has(uri.fsPath) && seen.add(uri.fsPath) !== undefined)
        .map(({ uri, dirty }) => {
          const languageId = languageOf(uri);
          return { file: uri.fsPath, dirty, ...(languageId === undefined ? {} : { languageId }) };
        });
      const editor = vscode.window.activeTextEditor;
      const active =
        editor === undefined || editor.document.uri.scheme !== 'file'
          ? undefined
          : { file: editor.document.uri.fsPath, selection: rangeOf(editor.selection), selectedText: editor.document.getText(editor.selection) };
      return Promise.resolve({ open: files, ...(active === undefined ? {} : { active }) });
    },
  };
}

function positionOf(position: EditorPosition): vscode.Position {
  return new vscode.Position(position.line, position.character);
}

function rangeOf(range: vscode.Range): EditorRange {
  return { start: { line: range.start.line, character: range.start.character }, end: { line: range.end.line, character: range.end.character } };
}

function diagnosticOf(diagnostic: vscode.Diagnostic): EditorDiagnostic {
  const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
  return {
    range: rangeOf(diagnostic.range),
    severity: SEVERITIES[diagnostic.severity],
    message: diagnostic.message,
    ...(diagnostic.source === undefined ? {} : { source: diagnostic.source }),
    ...(code === undefined ? {} : { code: String(code) }),
  };
}

/** Locations and location links (a link's target: its name's range when given). */
function locationsOf(found: ReadonlyArray<vscode.Location | vscode.LocationLink> | undefined): EditorLocation[] {
  return (found ?? []).flatMap((item) => {
    const [uri, range] = 'targetUri' in item ? [item.targetUri, item.targetSelectionRange ?? item.targetRange] : [item.uri, item.range];
    return uri.scheme === 'file' ? [{ file: uri.fsPath, range: rangeOf(range) }] : [];
  });
}

function documentSymbolOf(symbol: vscode.DocumentSymbol | vscode.SymbolInformation): EditorDocumentSymbol {
  if ('children' in symbol) {
    return {
      name: symbol.name,
      kind: vscode.SymbolKind[symbol.kind],
      ...(symbol.detail === '' ? {} : { detail: symbol.detail }),
      range: rangeOf(symbol.range),
      selectionRange: rangeOf(symbol.selectionRange),
      children: symbol.children.map(documentSymbolOf),
    };
  }
  // An older provider's flat list: the whole range stands for the name's.
  const range = rangeOf(symbol.location.range);
  return { name: symbol.name, kind: vscode.SymbolKind[symbol.kind], range, selectionRange: range, children: [] };
}

function markdownOf(content: vscode.MarkdownString | vscode.MarkedString): string {
  if (typeof content === 'string') {
    return content;
  }
  if ('language' in content) {
    return `\`\`\`${content.language}\n${content.value}\n\`\`\``;
  }
  return content.value;
}
