/**
 * Who reports which problem of a plugin file open in an editor, so each is reported once, and with
 * the severity it has when the file is closed. VS Code's JSON language service checks the JSON
 * syntax as you type (as errors); the schema it is given (schemas/tool-plugin.editor.schema.json)
 * reports nothing, since the language service would report every schema problem as a warning
 * while the problem keeps a tool from loading (scripts/build-editor-schema.mjs). The extension
 * reports everything else, from the document's text, as errors: the schema's findings with what
 * was most likely meant, and the checks no schema expresses (placeholders, shell operators,
 * duplicate names). Pure: no `vscode`.
 */
import type { PluginDiagnostic } from '../../core/types';

/** The schema keywords the editor's schema leaves out entirely; a unit test keeps this and the script in step. */
export const LEFT_TO_THE_EXTENSION: readonly string[] = ['additionalProperties', 'required', 'not'];

/** Whether the JSON language service reports this problem itself in an open editor: a syntax error only. */
export function reportedByTheEditor(diagnostic: PluginDiagnostic): boolean {
  return diagnostic.rule === 'syntax';
}
