/**
 * Where problems are in one parsed plugin file: JSON paths turned into line:column ranges that
 * cover the offending text (the misspelt key, the wrong value, the `|` or `{{name}}` inside a
 * string), and the diagnostics collected while the file loads.
 */
import type { Node } from 'jsonc-parser';
import { findNodeAtLocation } from 'jsonc-parser';
import type { PluginDiagnostic } from '../types';
import { LineIndex, extentInString, extentOf, nodeAt, propertyKeyAt, scanToolExtents } from './locate';
import type { Extent, JsonPath, Position, Range } from './locate';
import { parseJsoncTree } from './parse-jsonc';
import { extentByScan } from './scan-locate';

/** Where a problem is, beyond its JSON path. */
export interface ProblemPlace {
  /** The property key of the object at the path (unknown properties are shown on their key). */
  readonly key?: string;
  /** Characters of the string at the path that are wrong (see HandlerProblem.span). */
  readonly span?: { readonly start: number; readonly length: number };
}

/** A diagnostic's range and what found it, without the file, tool and message. */
export type DiagnosticPlace = Range & { readonly rule?: string };

/**
 * Positions and diagnostics inside one parsed file; the syntax tree is built on first need.
 * Tools too big to load are left out of the tree (see leaveOut): the tree of a 1 MB `enum` alone
 * would stall the server's thread, so places inside them are found by a scan of their text.
 */
export class FileContext {
  readonly diagnostics: PluginDiagnostic[] = [];
  private readonly lines: LineIndex;
  private tree: Node | undefined;
  private toolExtents: Extent[] | undefined;
  private readonly leftOut = new Set<number>();
  /** Where the tree's text had a left-out tool's inside cut out (offsets of the cut text). */
  private readonly cuts: { readonly at: number; readonly removed: number }[] = [];
  private treeText = '';

  constructor(
    readonly file: string,
    private readonly text: string,
  ) {
    this.lines = new LineIndex(text);
  }

  /**
   * Leaves `tools[index]` out of the syntax tree: call it, before any place is asked for, for a
   * tool too big to load. Places inside it are then found by scanning its text alone.
   */
  leaveOut(index: number): void {
    if (this.tree === undefined && this.extentOfTool(index) !== undefined) {
      this.leftOut.add(index);
    }
  }

  /** Position of the node at `path` (or the deepest node that exists on the way there). */
  position(at: JsonPath): Position {
    const scanned = this.scannedExtent(at, {});
    return this.lines.position(scanned?.start ?? this.inFile(extentOf(nodeAt(this.syntaxTree(), at))).start);
  }

  /** Position of `tools[index]`'s object: by the cheap scan unless the tree exists anyway. */
  toolPosition(index: number): Position {
    if (this.tree === undefined) {
      const extent = this.extentOfTool(index);
      if (extent !== undefined) {
        return this.lines.position(extent.start);
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

  /** Reports a problem inside a prompt (`prompt`: its name, or `prompts[N]`). */
  reportPrompt(prompt: string, at: JsonPath, message: string, place: ProblemPlace & { readonly rule?: string } = {}): void {
    this.diagnostics.push({
      file: this.file,
      prompt,
      ...this.range(at, place),
      ...(place.rule === undefined ? {} : { rule: place.rule }),
      message,
    });
  }

  private extentOfTool(index: number): Extent | undefined {
    this.toolExtents ??= scanToolExtents(this.text);
    return this.toolExtents[index];
  }

  /**
   * The tree of the text with each left-out tool's inside cut out (an empty `{}` remains). Its
   * offsets are the cut text's: inFile turns them back into the file's. (Blanking the inside
   * with spaces instead would keep the offsets, but the scanner reads a megabyte of spaces one by
   * one.)
   */
  private syntaxTree(): Node {
    if (this.tree === undefined) {
      const kept: string[] = [];
      let from = 0;
      for (const index of [...this.leftOut].sort((a, b) => a - b)) {
        const { start, end } = this.extentOfTool(index) as Extent;
        kept.push(this.text.slice(from, start + 1));
        from = end - 1;
        this.cuts.push({ at: start + 1 - this.removedBefore(Number.POSITIVE_INFINITY), removed: end - start - 2 });
      }
      kept.push(this.text.slice(from));
      this.treeText = kept.join('');
      this.tree = parseJsoncTree(this.treeText);
    }
    return this.tree;
  }

  /** How many characters the cuts took out before `treeOffset` of the cut text. */
  private removedBefore(treeOffset: number): number {
    return this.cuts.reduce((sum, cut) => (cut.at <= treeOffset ? sum + cut.removed : sum), 0);
  }

  /** An extent in the cut text, as offsets of the file. */
  private inFile(extent: Extent): Extent {
    return { start: extent.start + this.removedBefore(extent.start), end: extent.end + this.removedBefore(Math.max(extent.start, extent.end - 1)) };
  }

  /** The extent of a place inside a left-out tool, from a scan of that tool's text; else undefined. */
  private scannedExtent(at: JsonPath, place: ProblemPlace): Extent | undefined {
    const index = at[1];
    if (at[0] !== 'tools' || typeof index !== 'number' || !this.leftOut.has(index)) {
      return undefined;
    }
    const tool = this.extentOfTool(index) as Extent;
    const found = extentByScan(this.text.slice(tool.start, tool.end), at.slice(2), place);
    return found === undefined ? { start: tool.start, end: tool.start + 1 } : { start: tool.start + found.start, end: tool.start + found.end };
  }

  private extent(at: JsonPath, place: ProblemPlace): Extent {
    const scanned = this.scannedExtent(at, place);
    return scanned ?? this.inFile(this.treeExtent(at, place));
  }

  /** The extent of a place from the tree, in offsets of the tree's (cut) text. */
  private treeExtent(at: JsonPath, place: ProblemPlace): Extent {
    const tree = this.syntaxTree();
    const key = place.key === undefined ? undefined : propertyKeyAt(tree, at, place.key);
    if (key !== undefined) {
      return { start: key.offset, end: key.offset + key.length };
    }
    const exact = findNodeAtLocation(tree, [...at]);
    if (exact?.type === 'string' && place.span !== undefined) {
      return extentInString(this.treeText, exact.offset, place.span.start, place.span.length) ?? extentOf(exact);
    }
    return extentOf(exact ?? nodeAt(tree, at));
  }
}

/** A problem at `offset` of `text` (no tree: the text did not parse), `length` characters long. */
export function rangeInText(text: string, offset: number, length: number): Range {
  return new LineIndex(text).range({ start: offset, end: offset + Math.max(length, 1) });
}
