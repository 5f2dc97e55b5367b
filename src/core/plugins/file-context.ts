/**
 * Where problems are in one parsed plugin file: JSON paths turned into line:column ranges that
 * cover the offending text (the misspelt key, the wrong value, the `|` or `{{name}}` inside a
 * string), and the diagnostics collected while the file loads.
 */
import type { Node } from 'jsonc-parser';
import { findNodeAtLocation } from 'jsonc-parser';
import type { PluginDiagnostic } from '../types';
import { LineIndex, extentInString, extentOf, nodeAt, propertyKeyAt, scanToolOffsets } from './locate';
import type { Extent, JsonPath, Position, Range } from './locate';
import { parseJsoncTree } from './parse-jsonc';

/** Where a problem is, beyond its JSON path. */
export interface ProblemPlace {
  /** The property key of the object at the path (unknown properties are shown on their key). */
  readonly key?: string;
  /** Characters of the string at the path that are wrong (see HandlerProblem.span). */
  readonly span?: { readonly start: number; readonly length: number };
}

/** A diagnostic's range and what found it, without the file, tool and message. */
export type DiagnosticPlace = Range & { readonly rule?: string };

/** Positions and diagnostics inside one parsed file; the syntax tree is built on first need. */
export class FileContext {
  readonly diagnostics: PluginDiagnostic[] = [];
  private readonly lines: LineIndex;
  private tree: Node | undefined;
  private toolOffsets: number[] | undefined;

  constructor(
    readonly file: string,
    private readonly text: string,
  ) {
    this.lines = new LineIndex(text);
  }

  /** Position of the node at `path` (or the deepest node that exists on the way there). */
  position(at: JsonPath): Position {
    return this.lines.position(nodeAt(this.syntaxTree(), at).offset);
  }

  /** Position of `tools[index]`'s object: by the cheap scan unless the tree exists anyway. */
  toolPosition(index: number): Position {
    if (this.tree === undefined) {
      this.toolOffsets ??= scanToolOffsets(this.text);
      const offset = this.toolOffsets[index];
      if (offset !== undefined) {
        return this.lines.position(offset);
      }
    }
    return this.position(['tools', index]);
  }

  /** The range a problem at `at` underlines (see ProblemPlace). */
  range(at: JsonPath, place: ProblemPlace = {}): Range {
    return this.lines.range(this.extent(at, place));
  }

  report(tool: string | undefined, at: JsonPath, message: string, place: ProblemPlace & { readonly rule?: string } = {}): void {
    this.diagnostics.push({
      file: this.file,
      ...(tool === undefined ? {} : { tool }),
      ...this.range(at, place),
      ...(place.rule === undefined ? {} : { rule: place.rule }),
      message,
    });
  }

  private syntaxTree(): Node {
    this.tree ??= parseJsoncTree(this.text);
    return this.tree;
  }

  private extent(at: JsonPath, place: ProblemPlace): Extent {
    const tree = this.syntaxTree();
    const key = place.key === undefined ? undefined : propertyKeyAt(tree, at, place.key);
    if (key !== undefined) {
      return { start: key.offset, end: key.offset + key.length };
    }
    const exact = findNodeAtLocation(tree, [...at]);
    if (exact?.type === 'string' && place.span !== undefined) {
      return extentInString(this.text, exact.offset, place.span.start, place.span.length) ?? extentOf(exact);
    }
    return extentOf(exact ?? nodeAt(tree, at));
  }
}

/** A problem at `offset` of `text` (no tree: the text did not parse), `length` characters long. */
export function rangeInText(text: string, offset: number, length: number): Range {
  return new LineIndex(text).range({ start: offset, end: offset + Math.max(length, 1) });
}
