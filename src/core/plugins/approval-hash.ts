/**
 * What approval keys a plugin file on: what it runs, not how it is written. The hash is taken
 * over the file's parsed value (what the loader builds tools from) without the words written for
 * people and models: the descriptions (and titles) of the file, of each tool and of each input
 * property, and the names and expectations of declared tests. So a save that changes only
 * comments, whitespace, line breaks, those words or what a test expects keeps the approval, and
 * every other change (a command, a script, a URL, a header, a tag, a name, an input schema's
 * types, defaults or allowed values, a step, a test's input) withdraws it. The approval dialog
 * shows none of those words either: what is approved is what it shows.
 */
import { createHash } from 'node:crypto';

/** Keys that only describe, in the objects that have them. */
const WORDS = ['description', 'markdownDescription', 'title'] as const;

/** JSON Schema keywords whose value is a schema, or a list or map of schemas. */
const SUBSCHEMA = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'] as const;
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs'] as const;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `value` without the keys in WORDS (a copy; key order kept). fromEntries defines own properties,
 * so a key named "__proto__" stays a key and its value stays in the hash.
 */
function withoutWords(value: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !(WORDS as readonly string[]).includes(key)));
}

/** A JSON Schema without its descriptions, at every level; property *names* are kept. */
function schemaWithoutWords(schema: unknown): unknown {
  if (!isObject(schema)) {
    return schema;
  }
  const copy = withoutWords(schema);
  for (const key of SUBSCHEMA) {
    if (key in copy) {
      copy[key] = schemaWithoutWords(copy[key]);
    }
  }
  for (const key of SUBSCHEMA_LISTS) {
    if (Array.isArray(copy[key])) {
      copy[key] = (copy[key] as unknown[]).map(schemaWithoutWords);
    }
  }
  for (const key of SUBSCHEMA_MAPS) {
    const map = copy[key];
    if (isObject(map)) {
      copy[key] = Object.fromEntries(Object.entries(map).map(([name, entry]) => [name, schemaWithoutWords(entry)]));
    }
  }
  return copy;
}

/**
 * A declared test as far as it runs something: the input the tool is run with (a person who runs
 * the tests runs the tool with it) and how long it may take. Its name and what it expects of the
 * result run nothing, so editing them keeps the approval.
 */
function testThatRuns(test: unknown): unknown {
  if (!isObject(test)) {
    return test;
  }
  return Object.fromEntries(Object.entries(test).filter(([key]) => !(TEST_WORDS as readonly string[]).includes(key)));
}

/** Keys of a declared test that run nothing (testThatRuns). */
const TEST_WORDS = ['name', 'expect'] as const;

/** One tool without its descriptions and those of its input schema, and its tests without what runs nothing. */
function toolWithoutWords(tool: unknown): unknown {
  if (!isObject(tool)) {
    return tool;
  }
  const copy = withoutWords(tool);
  if ('inputSchema' in copy) {
    copy['inputSchema'] = schemaWithoutWords(copy['inputSchema']);
  }
  if (Array.isArray(copy['tests'])) {
    copy['tests'] = (copy['tests'] as unknown[]).map(testThatRuns);
  }
  return copy;
}

/**
 * One prompt without its descriptions and titles, and those of its arguments. Its messages stay:
 * they are what a client is given, and the files they read are what the file may read.
 */
function promptWithoutWords(prompt: unknown): unknown {
  if (!isObject(prompt)) {
    return prompt;
  }
  const copy = withoutWords(prompt);
  if (Array.isArray(copy['arguments'])) {
    copy['arguments'] = (copy['arguments'] as unknown[]).map((argument) => (isObject(argument) ? withoutWords(argument) : argument));
  }
  return copy;
}

/** The parts of a parsed plugin file that decide what runs (see the file's header). */
function whatRuns(value: unknown): unknown {
  if (!isObject(value)) {
    return value;
  }
  const copy = withoutWords(value);
  delete copy['version'];
  if (Array.isArray(copy['tools'])) {
    copy['tools'] = (copy['tools'] as unknown[]).map(toolWithoutWords);
  }
  if (Array.isArray(copy['prompts'])) {
    copy['prompts'] = (copy['prompts'] as unknown[]).map(promptWithoutWords);
  }
  return copy;
}

/** sha256 (hex) of what a parsed plugin file runs. */
export function whatRunsHash(value: unknown): string {
  return createHash('sha256').update('workspace-tools: what a plugin file runs\n').update(JSON.stringify(whatRuns(value)) ?? 'undefined').digest('hex');
}
