/**
 * What a question to the user may ask for (MCP form elicitation, 2025-11-25): a flat object
 * schema whose properties are strings (with a format, a length, an enum or titled `oneOf`),
 * numbers, integers, booleans, or lists of enum strings (multi-select). Nothing nested: the
 * client draws a form from it. Checked before anything is sent, so a code tool's `elicit` and a
 * plugin file's `confirm` get one clear sentence instead of a client's refusal. Pure.
 */

const TOP_KEYS = ['type', 'properties', 'required', '$schema', 'title', 'description'];
const COMMON = ['type', 'title', 'description', 'default'];
const KEYS: Readonly<Record<string, readonly string[]>> = {
  string: [...COMMON, 'minLength', 'maxLength', 'format', 'enum', 'enumNames', 'oneOf'],
  number: [...COMMON, 'minimum', 'maximum'],
  integer: [...COMMON, 'minimum', 'maximum'],
  boolean: COMMON,
  array: [...COMMON, 'items', 'minItems', 'maxItems'],
};
const FORMATS = ['email', 'uri', 'date', 'date-time'];

/** Why `schema` is not a schema a form can ask for, naming where, or undefined when it is one. */
export function elicitSchemaProblem(schema: unknown, at = 'requestedSchema'): string | undefined {
  if (!isObject(schema)) {
    return `${at} must be an object schema: { type: "object", properties: { ... } }`;
  }
  if (schema['type'] !== 'object') {
    return `${at}.type must be "object"`;
  }
  const extra = Object.keys(schema).filter((key) => !TOP_KEYS.includes(key));
  if (extra.length > 0) {
    return `${at} has ${quoted(extra)}; a form's schema has only type, properties and required`;
  }
  const properties = schema['properties'] ?? {};
  if (!isObject(properties)) {
    return `${at}.properties must be an object`;
  }
  for (const [name, property] of Object.entries(properties)) {
    const problem = propertyProblem(property, `${at}.properties.${name}`);
    if (problem !== undefined) {
      return problem;
    }
  }
  const required = schema['required'] ?? [];
  if (!Array.isArray(required) || required.some((name) => typeof name !== 'string' || !Object.hasOwn(properties, name))) {
    return `${at}.required must list names of its properties`;
  }
  return undefined;
}

function propertyProblem(property: unknown, at: string): string | undefined {
  if (!isObject(property)) {
    return `${at} must be an object`;
  }
  const type = property['type'];
  const keys = typeof type === 'string' ? KEYS[type] : undefined;
  if (keys === undefined) {
    return `${at}.type is ${JSON.stringify(type) ?? 'missing'}: a form asks for a string, number, integer, boolean or array (a multi-select of enum strings), nothing nested`;
  }
  const extra = Object.keys(property).filter((key) => !keys.includes(key));
  if (extra.length > 0) {
    return `${at} has ${quoted(extra)}, which a ${String(type)} field of a form does not take`;
  }
  const format = property['format'];
  if (type === 'string' && format !== undefined && (typeof format !== 'string' || !FORMATS.includes(format))) {
    return `${at}.format must be one of ${FORMATS.join(', ')}`;
  }
  if (property['enum'] !== undefined && !isStringList(property['enum'])) {
    return `${at}.enum must be a list of strings`;
  }
  if (property['oneOf'] !== undefined && !isTitledList(property['oneOf'])) {
    return `${at}.oneOf must be a list of { const: <string>, title: <string> }`;
  }
  if (type === 'array') {
    const items = property['items'];
    const choices = isObject(items) && ((items['type'] === 'string' && isStringList(items['enum'])) || isTitledList(items['anyOf']));
    if (!choices) {
      return `${at}.items must be { type: "string", enum: [...] } or { anyOf: [{ const, title }, ...] }: a list field is a multi-select`;
    }
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isTitledList(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => isObject(item) && typeof item['const'] === 'string' && typeof item['title'] === 'string');
}

function quoted(keys: readonly string[]): string {
  return keys.map((key) => `"${key}"`).join(', ');
}
