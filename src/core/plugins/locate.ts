/**
 * From a JSON path to a position in the file: offsets from jsonc-parser's tree, turned into the
 * 1-based line and column every diagnostic carries.
 */
import type { Node } from 'jsonc-parser';
import { commentEnd, stringEnd } from './parse-jsonc';

/** A JSON path: property names and array indexes. */
export type JsonPath = readonly (string | number)[];

/** A 1-based position in a text. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** A 1-based range in a text; the end column is exclusive (as an editor's selection). */
export interface Range extends Position {
  readonly endLine: number;
  readonly endColumn: number;
}

/** Offsets of a stretch of text: `[start, end)`. */
export interface Extent {
  readonly start: number;
  readonly end: number;
}

/**
 * Turns offsets into 1-based line:column (columns count UTF-16 units, as VS Code does). Lines end
 * as VS Code ends them: at `\n`, `\r\n` (Windows files) or a lone `\r`, so `\r` is never a column.
 */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    if (!text.includes('\r')) {
      // Most files: indexOf is a few times faster than the regular expression below.
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
        this.starts.push(i + 1);
      }
      return;
    }
    const breaks = /\r\n?|\n/g;
    for (let found = breaks.exec(text); found !== null; found = breaks.exec(text)) {
      this.starts.push(found.index + found[0].length);
    }
  }

  position(offset: number): Position {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    return { line: low + 1, column: offset - (this.starts[low] ?? 0) + 1 };
  }

  /** The 1-based range of `[start, end)`. */
  range(extent: Extent): Range {
    const start = this.position(extent.start);
    const end = this.position(Math.max(extent.end, extent.start));
    return { ...start, endLine: end.line, endColumn: end.column };
  }
}

/**
 * What a problem about `node` underlines: a value as a whole (`"shel"`, `42`), an object or an
 * array by its opening bracket (underlining a whole multi-line object would hide what is wrong
 * inside it).
 */
export function extentOf(node: Node): Extent {
  const whole = node.type !== 'object' && node.type !== 'array';
  return { start: node.offset, end: node.offset + (whole ? node.length : 1) };
}

/**
 * Where characters `[start, start + length)` of a string's value are in the file: the string
 * literal at `literalOffset` may spell a character as an escape (`\n`, `\u0041`), so each value
 * character is walked to its spelling. Undefined when the literal ends first.
 */
export function extentInString(text: string, literalOffset: number, start: number, length: number): Extent | undefined {
  const end = start + length;
  let raw = literalOffset + 1;
  let startRaw = raw;
  for (let index = 0; ; index++) {
    if (index === start) {
      startRaw = raw;
    }
    if (index === end) {
      return { start: startRaw, end: raw };
    }
    const ch = text.charAt(raw);
    if (ch === '"' || raw >= text.length) {
      return undefined;
    }
    raw += ch !== '\\' ? 1 : text.charAt(raw + 1) === 'u' ? 6 : 2;
  }
}

/** The child of an object or array node at one path segment, if it exists. */
function child(node: Node, segment: string | number): Node | undefined {
  if (node.type === 'array') {
    const index = typeof segment === 'number' ? segment : Number(segment);
    return Number.isInteger(index) ? node.children?.[index] : undefined;
  }
  if (node.type === 'object') {
    const property = node.children?.find((entry) => entry.children?.[0]?.value === String(segment));
    return property?.children?.[1];
  }
  return undefined;
}

/**
 * The node at `path`, or the deepest existing node on the way there (a problem about a missing
 * property is best shown on the object that lacks it).
 */
export function nodeAt(root: Node, path: JsonPath): Node {
  let node = root;
  for (const segment of path) {
    const next = child(node, segment);
    if (next === undefined) {
      return node;
    }
    node = next;
  }
  return node;
}

/** The key node of property `key` in the object at `path` (for "unknown property" problems). */
export function propertyKeyAt(root: Node, path: JsonPath, key: string): Node | undefined {
  const object = nodeAt(root, path);
  if (object.type !== 'object') {
    return undefined;
  }
  return object.children?.find((entry) => entry.children?.[0]?.value === key)?.children?.[0];
}

const QUOTE = 0x22;
const SLASH = 0x2f;

/**
 * Where each element of the root object's `tools` array is: from its opening `{` to just after
 * its closing `}`, found by one pass over the text (strings and comments skipped). It exists
 * because building jsonc-parser's tree only to place each tool costs ~25 times more; it is used
 * for files whose every tool is valid, where the tree is never needed, and to leave a tool too
 * big to parse into nodes out of the tree.
 */
export function scanToolExtents(text: string): Extent[] {
  let extents: { start: number; end: number }[] = [];
  let depth = 0;
  let lastString: readonly [number, number] = [0, 0];
  let key = '';
  let toolsDepth = -1;
  // Only these characters matter; the regex engine skips the rest (a character loop in
  // JavaScript cost ~15-20 ms per 800 KB in a cold process).
  const significant = /["/:{}[\]]/g;
  while (significant.test(text)) {
    const i = significant.lastIndex - 1;
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      const end = stringEnd(text, i);
      lastString = [i + 1, end];
      significant.lastIndex = end + 1;
    } else if (code === SLASH) {
      // An unterminated block comment (-1) runs to the end of the text.
      const end = commentEnd(text, i);
      significant.lastIndex = end === -1 ? text.length : end + 1;
    } else if (code === 0x3a /* : */) {
      key = depth === 1 ? text.slice(lastString[0], lastString[1]) : key;
    } else if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
      if (code === 0x7b && depth === toolsDepth) {
        extents.push({ start: i, end: text.length });
      }
      if (code === 0x5b && depth === 1 && key === 'tools') {
        extents = [];
        toolsDepth = depth + 1;
      }
      depth++;
    } else {
      // `}` or `]`: the regex matches nothing else.
      depth--;
      const last = extents[extents.length - 1];
      if (code === 0x7d && depth === toolsDepth && last !== undefined) {
        last.end = i + 1;
      }
      if (depth < toolsDepth) {
        toolsDepth = -1;
      }
    }
  }
  return extents;
}
