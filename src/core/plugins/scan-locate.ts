/**
 * Where a JSON path is, found by one streaming pass that stops at it, with no syntax tree. It is
 * for tools too big to parse into nodes: jsonc-parser's tree of a 1 MB `enum` takes 100-250 ms
 * of the server's only thread (one node per entry, then the garbage collector), which is a
 * stall a model can cause by writing a file; the scan allocates nothing per value, skips every
 * subtree that is not on the way to the path, and stops there.
 */
import { visit } from 'jsonc-parser';
import type { Extent, JsonPath } from './locate';
import { extentInString } from './locate';

/** What to find at the path: a property's key, or characters of the string there. */
export interface ScanTarget {
  readonly key?: string;
  readonly span?: { readonly start: number; readonly length: number };
}

/** Thrown by the visitor to end the scan where the target is (jsonc-parser's visit has no stop). */
class Found extends Error {
  constructor(readonly extent: Extent) {
    super('found');
  }
}

function sameSegment(a: string | number, b: string | number): boolean {
  return String(a) === String(b);
}

/** Whether `prefix` leads to `path` (or is it). */
function leadsTo(prefix: JsonPath, path: JsonPath): boolean {
  return prefix.length <= path.length && prefix.every((segment, index) => sameSegment(segment, path[index] as string | number));
}

/**
 * The extent of `path` in `text` as FileContext underlines it: a property's key when a key is
 * given and the object has it, the characters of a string's `span`, a value as a whole, an
 * object or array by its opening bracket; when the path does not exist, the deepest object or
 * array on the way there. Undefined only when not even the root is a value.
 */
export function extentByScan(text: string, path: JsonPath, target: ScanTarget = {}): Extent | undefined {
  let deepest: Extent | undefined;
  let deepestLength = -1;
  const container = (offset: number, pathSupplier: () => JsonPath): boolean => {
    const at = pathSupplier();
    if (!leadsTo(at, path)) {
      return false; // The scanner still reads the subtree, but calls nothing inside it.
    }
    if (at.length > deepestLength) {
      deepest = { start: offset, end: offset + 1 };
      deepestLength = at.length;
    }
    if (at.length === path.length && target.key === undefined) {
      throw new Found({ start: offset, end: offset + 1 });
    }
    return true;
  };
  try {
    visit(
      text,
      {
        onObjectBegin: (offset, _length, _line, _character, pathSupplier) => container(offset, pathSupplier),
        onArrayBegin: (offset, _length, _line, _character, pathSupplier) => container(offset, pathSupplier),
        // jsonc-parser ends a skipped subtree in its end callbacks: without them, skipping never ends.
        onObjectEnd: () => undefined,
        onArrayEnd: () => undefined,
        onObjectProperty: (property, offset, length, _line, _character, pathSupplier) => {
          if (target.key !== undefined && property === target.key && pathSupplier().length === path.length) {
            throw new Found({ start: offset, end: offset + length });
          }
        },
        onLiteralValue: (value, offset, length, _line, _character, pathSupplier) => {
          const at = pathSupplier();
          if (!leadsTo(at, path)) {
            return;
          }
          if (at.length < path.length) {
            // The path goes on inside a value that has no inside: this value is as deep as it gets.
            if (at.length > deepestLength) {
              deepest = { start: offset, end: offset + length };
              deepestLength = at.length;
            }
            return;
          }
          const inString = typeof value === 'string' && target.span !== undefined ? extentInString(text, offset, target.span.start, target.span.length) : undefined;
          throw new Found(inString ?? { start: offset, end: offset + length });
        },
      },
      { allowTrailingComma: true, disallowComments: false },
    );
  } catch (error) {
    if (error instanceof Found) {
      return error.extent;
    }
    throw error;
  }
  return deepest;
}
