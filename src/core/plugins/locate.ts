/**
 * From a JSON path to a position in the file: offsets from jsonc-parser's tree, turned into the
 * 1-based line and column every diagnostic carries.
 */
import type { Node } from 'jsonc-parser';

/** A JSON path: property names and array indexes. */
export type JsonPath = readonly (string | number)[];

/** A 1-based position in a text. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** Turns offsets into 1-based line:column (columns count UTF-16 units, as VS Code does). */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
      this.starts.push(i + 1);
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
