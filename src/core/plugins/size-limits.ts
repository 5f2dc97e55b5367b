/**
 * Limits checked before the expensive steps of loading a plugin file (parsing, schema
 * validation, compiling), each in one linear pass. A file the model wrote must not stall the
 * server: one nested 1.5 million levels deep overflowed the parser's stack, and a 100,000-entry
 * `enum` took 12 s to validate (the meta-schema compares array items pairwise). Real plugin
 * files stay far below every limit.
 */
import type { JsonPath } from './locate';

/** Deepest nesting of objects and arrays in a file's text. */
export const MAX_TEXT_NESTING = 200;
/** Most entries of any array inside one tool (an `enum`, `command`, `steps`...). */
export const MAX_TOOL_ARRAY_LENGTH = 1_000;
/** Most JSON values (objects, arrays, strings, numbers...) in one tool. */
export const MAX_TOOL_NODES = 20_000;
/** Deepest nesting inside one tool (a schema nests a few levels; 64 leaves room). */
export const MAX_TOOL_DEPTH = 64;

/**
 * The offset where the text first nests deeper than MAX_TEXT_NESTING, skipping strings and
 * comments; undefined when it never does. Runs on the raw text, before the (recursive) parser.
 */
export function excessiveNestingOffset(text: string): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\') {
          i++;
        }
      }
    } else if (char === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else if (char === '{' || char === '[') {
      if (++depth > MAX_TEXT_NESTING) {
        return i;
      }
    } else if (char === '}' || char === ']') {
      depth--;
    }
  }
  return undefined;
}

/** Why a tool is too big to load, and where inside it (a path relative to the tool). */
export interface SizeProblem {
  readonly path: JsonPath;
  readonly message: string;
}

/** The first limit one tool's value breaks, or undefined. Iterative: depth cannot overflow it. */
export function toolSizeProblem(tool: unknown): SizeProblem | undefined {
  let nodes = 0;
  const stack: { value: unknown; path: JsonPath }[] = [{ value: tool, path: [] }];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const { value, path } = entry;
    if (++nodes > MAX_TOOL_NODES) {
      return { path: [], message: `the tool has more than ${MAX_TOOL_NODES} JSON values; it was not loaded` };
    }
    if (value === null || typeof value !== 'object') {
      continue;
    }
    if (path.length > MAX_TOOL_DEPTH) {
      return { path, message: `the tool nests deeper than ${MAX_TOOL_DEPTH} levels here; it was not loaded` };
    }
    if (Array.isArray(value)) {
      if (value.length > MAX_TOOL_ARRAY_LENGTH) {
        return {
          path,
          message: `this array has ${value.length} entries; a tool may have at most ${MAX_TOOL_ARRAY_LENGTH} in one array (an "enum" that long belongs in a file the tool reads); it was not loaded`,
        };
      }
      value.forEach((item, index) => stack.push({ value: item, path: [...path, index] }));
    } else {
      for (const [key, item] of Object.entries(value)) {
        stack.push({ value: item, path: [...path, key] });
      }
    }
  }
  return undefined;
}
