/**
 * package.json's `contributes.configuration`, from the settings table (settings-table.ts):
 * `node scripts/sync-manifest.mjs` writes it, and `test/unit/settings/` fails while package.json
 * says anything else, so the settings editor shows exactly what the extension reads.
 */
import { SETTINGS_SECTION, SETTING_FIELDS, rowOf } from './settings-table';

/** One property of `contributes.configuration.properties`. */
export type ManifestProperty = Readonly<Record<string, unknown>>;

/** The `contributes.configuration` section: every setting, in the table's order. */
export function settingsManifest(): { readonly title: string; readonly properties: Readonly<Record<string, ManifestProperty>> } {
  const properties = SETTING_FIELDS.map((field) => {
    const row = rowOf(field);
    const description = 'description' in row ? { description: row.description } : { markdownDescription: row.markdownDescription };
    const property: ManifestProperty = { ...row.kind.schema, default: row.default, ...(row.scope === undefined ? {} : { scope: row.scope }), ...description };
    return [`${SETTINGS_SECTION}.${row.key}`, property] as const;
  });
  return { title: 'Workspace Tools', properties: Object.fromEntries(properties) };
}
