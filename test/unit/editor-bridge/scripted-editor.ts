/**
 * An editor for the editor tools' tests: EditorQueries answering what each test scripts, and
 * recording what it was asked. The real one is VS Code (src/extension/editor-bridge), exercised
 * by the e2e check; here the question is what the tools make of its answers.
 */
import type { EditorDocumentSymbol, EditorFileDiagnostics, EditorLocation, EditorOpenFiles, EditorPosition, EditorQueries, EditorRange, EditorSymbol } from '../../../src/core/editor-bridge/editor-queries';

export interface Script {
  diagnostics?: EditorFileDiagnostics[];
  definition?: EditorLocation[];
  references?: EditorLocation[];
  workspaceSymbols?: EditorSymbol[];
  documentSymbols?: Record<string, EditorDocumentSymbol[]>;
  hover?: string[];
  openFiles?: EditorOpenFiles;
}

export interface ScriptedEditor extends EditorQueries {
  readonly script: Script;
  /** Each question, as `method file line:character` (0-based, as the editor takes it). */
  readonly asked: string[];
}

export function scriptedEditor(script: Script = {}): ScriptedEditor {
  const asked: string[] = [];
  const at = (method: string, file: string, position: EditorPosition): void => void asked.push(`${method} ${file} ${position.line}:${position.character}`);
  return {
    script,
    asked,
    diagnostics: async (file) => {
      asked.push(`diagnostics ${file ?? '*'}`);
      return (script.diagnostics ?? []).filter((entry) => file === undefined || entry.file === file);
    },
    definition: async (file, position) => (at('definition', file, position), script.definition ?? []),
    references: async (file, position) => (at('references', file, position), script.references ?? []),
    workspaceSymbols: async (query) => (asked.push(`workspaceSymbols ${query}`), script.workspaceSymbols ?? []),
    documentSymbols: async (file) => (asked.push(`documentSymbols ${file}`), script.documentSymbols?.[file] ?? []),
    hover: async (file, position) => (at('hover', file, position), script.hover ?? []),
    openFiles: async () => script.openFiles ?? { open: [] },
  };
}

/** A 0-based range on one line. */
export function range(line: number, start: number, end: number): EditorRange {
  return { start: { line, character: start }, end: { line, character: end } };
}
