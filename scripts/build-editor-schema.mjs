/**
 * Generates schemas/tool-plugin.editor.schema.json from the one schema file,
 * schemas/tool-plugin.schema.json: what VS Code's JSON language service gets for plugin files
 * (contributes.jsonValidation), for completions and hovers only. It reports no problem of its own:
 *
 * - The language service reports every schema problem as a warning (its severity is fixed), while
 *   a problem that keeps a tool from loading is an error: the extension reports each one itself,
 *   from the file's text as you type, as an error, the same as when the file is closed, and once,
 *   with what was most likely meant. (Both reporting a misspelt key made three problems of one.)
 * - So the keywords that only say what is missing or not allowed (`required`, `not`,
 *   `additionalProperties: false`) are left out, and the checks of a value where it is (`type`,
 *   `enum`, `pattern`, `minimum`, ..., and a `$ref` to another schema) move into
 *   `anyOf: [{the checks}, {}]`: a value always matches `{}`, so nothing is reported, while the
 *   language service still reads the checks for what it offers (the allowed values and their
 *   descriptions, hovers). A `oneOf` becomes an `anyOf` (with every branch matching, a `oneOf`
 *   fails: "Matches multiple schemas"). An `if` is a condition (which `then` applies) and stays.
 *
 * The output is committed; test/unit/plugins/editor-schema.test regenerates it in memory and fails
 * when it is stale.
 *
 * Usage: node scripts/build-editor-schema.mjs     (rewrites the generated file)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Where the generated schema lives, relative to the repository root. */
export const EDITOR_SCHEMA_PATH = 'schemas/tool-plugin.editor.schema.json';

/** The keywords left out: the extension reports what they would find (see the header). */
export const LEFT_OUT = ['additionalProperties', 'required', 'not'];

/** The checks of a value where it is, moved where they report nothing (see the header). */
export const VALUE_CHECKS = [
  'type', 'enum', 'const', 'pattern', 'format', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'multipleOf', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties',
];
/** Words that go with `enum` (the language service shows them beside the values it offers). */
const ENUM_WORDS = ['enumDescriptions', 'markdownEnumDescriptions'];

/** Keywords whose value is a map of schemas (its keys are names, not keywords). */
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs'];
/** Keywords whose value is a schema or a list of schemas. `if` is a condition: kept whole. */
const SUBSCHEMAS = ['items', 'additionalProperties', 'then', 'else', 'contains', 'propertyNames', 'anyOf', 'oneOf', 'allOf'];

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One schema without the keywords in LEFT_OUT, at every level (an object `additionalProperties` stays). */
function strip(schema) {
  if (!isObject(schema)) {
    return schema;
  }
  const copy = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'required' || key === 'not' || (key === 'additionalProperties' && value === false)) {
      continue;
    }
    if (SCHEMA_MAPS.includes(key) && isObject(value)) {
      copy[key] = Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, strip(entry)]));
    } else if (SUBSCHEMAS.includes(key)) {
      const stripped = Array.isArray(value) ? value.map(strip) : strip(value);
      // A choice among branches that only said what is required (`oneOf: [{required: [text]}, ...]`) is left out
      // whole: its branches become `{}`, and a `oneOf` of empty schemas fails every value ("Matches multiple schemas").
      if (Array.isArray(stripped) && stripped.length > 0 && stripped.every((branch) => isObject(branch) && Object.keys(branch).length === 0)) {
        continue;
      }
      copy[key] = stripped;
    } else {
      copy[key] = value;
    }
  }
  return copy;
}

/**
 * One schema, at every level, that matches every value: its value checks in `anyOf: [checks, {}]`,
 * a `oneOf` as an `anyOf` (several choices: the first as the node's `anyOf`, the others in `allOf`).
 */
function loosen(schema) {
  if (!isObject(schema)) {
    return schema;
  }
  const copy = {};
  const checks = {};
  for (const [key, value] of Object.entries(schema)) {
    // A reference to a schema of its own (the JSON Schema meta-schema an `inputSchema` follows) checks
    // what it references with that schema's rules: it goes with the checks.
    if (VALUE_CHECKS.includes(key) || ENUM_WORDS.includes(key) || (key === '$ref' && !String(value).startsWith('#'))) {
      checks[key] = value;
    } else if (key === 'if') {
      copy[key] = value;
    } else if (SCHEMA_MAPS.includes(key) && isObject(value)) {
      copy[key] = Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, loosen(entry)]));
    } else if (SUBSCHEMAS.includes(key)) {
      copy[key] = Array.isArray(value) ? value.map(loosen) : loosen(value);
    } else {
      copy[key] = value;
    }
  }
  const choices = [copy.anyOf, copy.oneOf, Object.keys(checks).length > 0 ? [checks, {}] : undefined].filter((choice) => choice !== undefined);
  delete copy.anyOf;
  delete copy.oneOf;
  const [first, ...rest] = choices;
  if (first !== undefined) {
    copy.anyOf = first;
  }
  if (rest.length > 0) {
    copy.allOf = [...(copy.allOf ?? []), ...rest.map((choice) => ({ anyOf: choice }))];
  }
  return copy;
}

/** The editor's schema text for the schema text `source`. */
export function editorSchemaText(source) {
  const schema = JSON.parse(source);
  const generated = {
    $comment: `GENERATED by scripts/build-editor-schema.mjs from tool-plugin.schema.json (without ${LEFT_OUT.join(', ')}; value checks in anyOf with {}, so it reports nothing): do not edit.`,
    ...loosen(strip(schema)),
  };
  return `${JSON.stringify(generated, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = editorSchemaText(readFileSync(join(root, 'schemas/tool-plugin.schema.json'), 'utf8'));
  writeFileSync(join(root, EDITOR_SCHEMA_PATH), text);
  console.log(`wrote ${EDITOR_SCHEMA_PATH}`);
}
