/**
 * What the editor knows, as the host that runs the editor tools asks it: VS Code's providers
 * (src/extension/editor-bridge/vscode-queries.ts), or a fake editor in tests. Plain data in the
 * editor's own terms: absolute file paths and 0-based positions (VS Code's `Position`). Turning
 * them into what a model reads (workspace-relative paths, 1-based positions, nothing outside the
 * workspace) is editor-tools.ts's job, so every host gets the same rules.
 */

/** A place in a document, 0-based, `character` in UTF-16 code units (VS Code's Position). */
export interface EditorPosition {
  readonly line: number;
  readonly character: number;
}

export interface EditorRange {
  readonly start: EditorPosition;
  readonly end: EditorPosition;
}

/** A range in a file, by its absolute path as the editor has it. */
export interface EditorLocation {
  readonly file: string;
  readonly range: EditorRange;
}

export type EditorSeverity = 'error' | 'warning' | 'information' | 'hint';

export interface EditorDiagnostic {
  readonly range: EditorRange;
  readonly severity: EditorSeverity;
  readonly message: string;
  readonly source?: string;
  readonly code?: string;
}

/** The diagnostics of one file (the Problems panel groups them so). */
export interface EditorFileDiagnostics {
  readonly file: string;
  readonly diagnostics: readonly EditorDiagnostic[];
}

/** A workspace symbol (SymbolInformation): its name, kind (VS Code's SymbolKind name, e.g. "Function") and where it is. */
export interface EditorSymbol {
  readonly name: string;
  readonly kind: string;
  readonly containerName?: string;
  readonly location: EditorLocation;
}

/** A symbol of a document's outline (DocumentSymbol): the whole range, the name's range and its children. */
export interface EditorDocumentSymbol {
  readonly name: string;
  readonly kind: string;
  readonly detail?: string;
  readonly range: EditorRange;
  readonly selectionRange: EditorRange;
  readonly children: readonly EditorDocumentSymbol[];
}

/** An editor tab showing a text file. */
export interface EditorOpenFile {
  readonly file: string;
  readonly languageId?: string;
  /** Unsaved changes. */
  readonly dirty: boolean;
}

/** The open editors, and the active one with its selection. */
export interface EditorOpenFiles {
  readonly open: readonly EditorOpenFile[];
  readonly active?: {
    readonly file: string;
    readonly selection: EditorRange;
    /** The selected text (empty when the selection is a cursor). */
    readonly selectedText: string;
  };
}

/** The editor's language services, as the editor tools use them. Each answer may be empty. */
export interface EditorQueries {
  /** The Problems panel: every file's diagnostics, or one file's. */
  diagnostics(file?: string): Promise<readonly EditorFileDiagnostics[]>;
  definition(file: string, position: EditorPosition): Promise<readonly EditorLocation[]>;
  references(file: string, position: EditorPosition): Promise<readonly EditorLocation[]>;
  workspaceSymbols(query: string): Promise<readonly EditorSymbol[]>;
  documentSymbols(file: string): Promise<readonly EditorDocumentSymbol[]>;
  /** The hover's contents, each part as markdown text. */
  hover(file: string, position: EditorPosition): Promise<readonly string[]>;
  openFiles(): Promise<EditorOpenFiles>;
}
