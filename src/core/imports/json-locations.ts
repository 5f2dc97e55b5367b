/** Where the properties of a JSON object are (package.json's scripts): 1-based line:column of each key. */
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import { LineIndex } from '../plugins/locate';

/** The position of each key of the object at `path`, by key (the first when a key repeats). */
export function keyPositions(text: string, path: readonly string[]): Map<string, { readonly line: number; readonly column: number }> {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  const object: Node | undefined = root === undefined ? undefined : findNodeAtLocation(root, [...path]);
  const lines = new LineIndex(text);
  const positions = new Map<string, { line: number; column: number }>();
  for (const property of object?.type === 'object' ? (object.children ?? []) : []) {
    const key = property.children?.[0];
    if (typeof key?.value === 'string' && !positions.has(key.value)) {
      positions.set(key.value, lines.position(key.offset));
    }
  }
  return positions;
}
