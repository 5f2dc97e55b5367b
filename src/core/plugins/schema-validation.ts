/**
 * Validates a parsed plugin file against schemas/tool-plugin.schema.json (the same file VS Code
 * uses for IntelliSense), through the validator generated from that file, and turns Ajv's errors
 * into the few problems a user needs to read.
 */
import type { ErrorObject } from 'ajv';
import type { JsonPath } from './locate';
import { closestName, likelyValue } from './likely-value';
import * as path from 'node:path';
import { requireBundled } from '../bundled-module';

/** One schema problem: where (a JSON path, and the property key for unknown properties) and what. */
export interface SchemaProblem {
  readonly path: JsonPath;
  /** Set for unknown properties: the problem is shown on this key of the object at `path`. */
  readonly key?: string;
  /** The schema keyword that failed (`type`, `enum`, `required`, `additionalProperties`, ...). */
  readonly keyword: string;
  /** For an unknown property: the allowed name it most likely meant, if one is close. */
  readonly suggestion?: string;
  /** For a missing property: its name, or the names of which one is needed. */
  readonly missing?: readonly string[];
  readonly message: string;
}

/** What the generated standalone validator is: Ajv's validate function, errors on the function. */
type FileValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

let generated: FileValidator | undefined;

/**
 * Precompiled from the schema file by scripts/build-plugin-validator.mjs (Ajv standalone code,
 * with `allErrors` and `verbose` for the "allowed:" lists): a cold process loads this code and
 * two small Ajv runtime helpers, not Ajv itself, and compiles nothing. Loaded with the first
 * plugin file, from dist/plugin-file-validator.js in the bundles: a session without plugin files
 * never parses its 120 KB.
 */
function validateFile(): FileValidator {
  generated ??= requireBundled('plugin-file-validator.js', () =>
    // A computed path: the bundler must not inline the generated module into the bundle.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(path.join(__dirname, 'plugin-file-validator.generated')) as { validate: FileValidator },
  ).validate;
  return generated;
}

/** Schema problems of a parsed plugin file, in document order; empty when it is valid. */
export function validatePluginFile(value: unknown): SchemaProblem[] {
  const validate = validateFile();
  if (validate(value)) {
    return [];
  }
  return reduceErrors(validate.errors ?? []).map(toProblem);
}

/** JSON pointer (`/tools/0/name`) to path segments; array indexes become numbers. */
export function pointerToPath(pointer: string): (string | number)[] {
  if (pointer === '') {
    return [];
  }
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : segment));
}

const COMBINATORS = new Set(['anyOf', 'oneOf']);

/**
 * Keeps the errors that name the real problem. Ajv reports every failed branch of an anyOf, the
 * `if` that selected a failing `then`, and a `required` miss next to the misspelt property that
 * caused it; each rule below drops one such echo, per instance path.
 */
function reduceErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  const kept: ErrorObject[] = [];
  const paths = [...new Set(errors.map((error) => error.instancePath))];
  for (const path of paths) {
    const here = errors.filter((error) => error.instancePath === path && error.keyword !== 'if');
    const deeper = errors.some((error) => error.instancePath.startsWith(`${path}/`));
    kept.push(...reduceAtPath(here, deeper));
  }
  return kept;
}

function reduceAtPath(here: ErrorObject[], deeper: boolean): ErrorObject[] {
  const combinators = here.filter((error) => COMBINATORS.has(error.keyword));
  const branchOf = (parent: ErrorObject) => (error: ErrorObject) =>
    error !== parent && error.schemaPath.startsWith(`${parent.schemaPath}/`);
  // A misspelt "comand" explains the missing "command" and the anyOf that wanted it.
  const typos = here.filter((error) => error.keyword === 'additionalProperties').map(unknownKey);
  const explained = here.filter((error) => error.keyword === 'required' && typos.some((typo) => closestName(typo, [missingName(error)]) !== undefined));
  const explainedCombinators = combinators.filter((combinator) => explained.some(branchOf(combinator)));
  // A oneOf that more than one branch matched (a prompt message with both "text" and "file") is the problem itself,
  // kept as it is; the branch that did not match ("missing image") is its echo.
  const overmatched = here.filter((error) => isOvermatchedOneOf(error) && !explainedCombinators.includes(error));
  const errors = here.filter(
    (error) =>
      !explained.includes(error) &&
      !explainedCombinators.includes(error) &&
      !explainedCombinators.some((combinator) => branchOf(combinator)(error)) &&
      !overmatched.some((combinator) => branchOf(combinator)(error)),
  );
  const live = combinators.filter((combinator) => errors.includes(combinator) && !overmatched.includes(combinator));
  if (live.length === 0) {
    return errors;
  }
  // With an anyOf at this path, a `type` error is a branch that did not fit: noise, unless every
  // branch failed on type. Missing properties of the branches merge into "needs a or b".
  const inBranch = (error: ErrorObject) => live.some((combinator) => branchOf(combinator)(error));
  const branchRequired = errors.filter((error) => error.keyword === 'required' && inBranch(error));
  const types = errors.filter((error) => error.keyword === 'type');
  const others = errors.filter(
    (error) => !COMBINATORS.has(error.keyword) && error.keyword !== 'type' && !branchRequired.includes(error),
  );
  others.push(...overmatched);
  const first = live[0] as ErrorObject;
  if (branchRequired.length > 0) {
    others.push({ ...first, keyword: 'required', params: { missingProperty: branchRequired.map(missingName) } });
  } else if (!deeper && others.length === 0 && types.length > 0) {
    const names = types.map((error) => String((error.params as { type?: unknown }).type));
    others.push({ ...first, keyword: 'type', params: { type: names.join(' or ') } });
  }
  return others;
}

function isOvermatchedOneOf(error: ErrorObject): boolean {
  return error.keyword === 'oneOf' && Array.isArray((error.params as { passingSchemas?: unknown }).passingSchemas);
}

function unknownKey(error: ErrorObject): string {
  return String((error.params as { additionalProperty?: unknown }).additionalProperty);
}

function missingName(error: ErrorObject): string {
  return String((error.params as { missingProperty?: unknown }).missingProperty);
}

function toProblem(error: ErrorObject): SchemaProblem {
  const path = pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') {
    const key = unknownKey(error);
    const allowed = allowedNames(path, error.parentSchema);
    const suggestion = closestName(key, allowed);
    return { path, key, keyword: error.keyword, ...(suggestion === undefined ? {} : { suggestion }), message: unknownPropertyMessage(key, path, allowed, suggestion) };
  }
  const missing = error.keyword === 'required' ? [params['missingProperty']].flat().map(String) : undefined;
  return { path, keyword: error.keyword, ...(missing === undefined ? {} : { missing }), message: describe(error, path, params) };
}

function describe(error: ErrorObject, path: JsonPath, params: Record<string, unknown>): string {
  const where = describePath(path);
  switch (error.keyword) {
    case 'required': {
      const missing = params['missingProperty'];
      if (Array.isArray(missing)) {
        return `${where} needs ${missing.map((name) => `"${String(name)}"`).join(' or ')}`;
      }
      return `missing required property "${String(missing)}" in ${where}`;
    }
    case 'enum': {
      const allowed = (params['allowedValues'] as unknown[]).map(String);
      const guess = typeof error.data === 'string' ? likelyValue(path, error.data, allowed) : undefined;
      return `${where} must be one of ${allowed.join(', ')}${guess === undefined ? '' : ` (did you mean "${guess}"?)`}`;
    }
    case 'const':
      return `${where} must be ${JSON.stringify(params['allowedValue'])}`;
    case 'type':
      return `${where} must be ${String(params['type'])}`;
    case 'minItems': {
      const limit = Number(params['limit']);
      return `${where} must have at least ${limit} ${limit === 1 ? 'item' : 'items'}`;
    }
    case 'not':
      return `${where} must not have ${describeNot(error.schema)}`;
    case 'oneOf':
      return `${where} must have only one of ${describeOneOf(error.schema)}`;
    case 'pattern':
      if (path.at(-1) === 'name' && path.length <= 3) {
        return `invalid name ${JSON.stringify(error.data)}: use 1-64 letters, digits, "_" or "-"`;
      }
      return path.at(-2) === 'hosts'
        ? `${where} ${JSON.stringify(error.data)} is not a host: write a host name (registry.npmjs.org) or *. and a domain (*.github.com), without a scheme, a port or a path`
        : `${where} must match the pattern ${String(params['pattern'])}`;
    case 'minProperties':
      return Number(params['limit']) === 1 ? `${where} is empty: give it at least one property or remove it` : `${where} ${error.message ?? 'is invalid'}`;
    default:
      return `${where} ${error.message ?? 'is invalid'}`;
  }
}

/** What a `not: { required: [...] }` forbids, e.g. `both "command" and "script"; use one`. */
function describeNot(notSchema: unknown): string {
  const required = (notSchema as { required?: unknown } | undefined)?.required;
  if (Array.isArray(required)) {
    return `both ${required.map((name) => `"${String(name)}"`).join(' and ')}; use only one`;
  }
  return 'this form';
}

/** The properties a `oneOf: [{ required: [a] }, { required: [b] }]` chooses between: `"a", "b"`. */
function describeOneOf(branches: unknown): string {
  const names = (Array.isArray(branches) ? branches : []).flatMap((branch) => (branch as { required?: readonly string[] }).required ?? []);
  return names.length === 0 ? 'its forms' : names.map((name) => `"${name}"`).join(', ');
}

/**
 * A readable name for a path: relative to the tool inside `tools[N]` (the diagnostic already
 * names the tool), else from the file's root.
 */
export function describePath(path: JsonPath): string {
  const inTool = path[0] === 'tools' && typeof path[1] === 'number';
  const rest = inTool ? path.slice(2) : path;
  if (rest.length === 0) {
    return inTool ? 'tool' : 'the file';
  }
  if (rest.length === 2 && rest[0] === 'handler' && rest[1] === 'type') {
    return 'handler type';
  }
  return rest
    .map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`))
    .join('');
}

/** The property names the schema allows in the object at `path` (a handler's `type` goes without saying). */
function allowedNames(path: JsonPath, parentSchema: unknown): string[] {
  const properties = (parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return Object.keys(properties ?? {}).filter((name) => name !== 'type' || path.at(-1) !== 'handler');
}

function unknownPropertyMessage(key: string, path: JsonPath, allowed: readonly string[], guess: string | undefined): string {
  const hint = guess === undefined ? '' : ` (did you mean "${guess}"?)`;
  const list = allowed.length === 0 ? '' : `; allowed: ${allowed.join(', ')}`;
  return `unknown property "${key}" in ${describePath(path)}${hint}${list}`;
}
