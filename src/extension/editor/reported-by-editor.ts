/**
 * Who reports which problem of a plugin file open in an editor, so each is reported once. VS
 * Code's JSON language service checks the file as you type against
 * schemas/tool-plugin.editor.schema.json: the JSON syntax and the values (types, allowed values,
 * patterns, lengths). That schema leaves out the keywords below (scripts/build-editor-schema.mjs),
 * and the extension reports what they find, with what was most likely meant, together with the
 * checks no schema expresses (placeholders, shell operators, duplicate names). Pure: no `vscode`.
 */
import type { PluginDiagnostic } from '../../core/types';

/** The schema keywords the editor's schema leaves out; a unit test keeps this and the script in step. */
export const LEFT_TO_THE_EXTENSION: readonly string[] = ['additionalProperties', 'required', 'not'];

/** Whether the JSON language service reports this problem itself in an open editor. */
export function reportedByTheEditor(diagnostic: PluginDiagnostic): boolean {
  return diagnostic.rule === 'syntax' || (diagnostic.rule !== undefined && !LEFT_TO_THE_EXTENSION.includes(diagnostic.rule));
}
