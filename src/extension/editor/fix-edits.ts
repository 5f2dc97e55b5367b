/**
 * What the quick fixes of a plugin file are made of (pure: no `vscode` import): text edits, and
 * what they need to know about the text around a fix.
 */
import type { Node } from 'jsonc-parser';
import { findNodeAtLocation, getNodePath, getNodeValue } from 'jsonc-parser';

/** A replacement of `length` characters at `offset`. */
export interface TextEdit {
  readonly offset: number;
  readonly length: number;
  readonly newText: string;
}

/** One quick fix: its title and its edits. */
export interface QuickFix {
  readonly title: string;
  readonly edits: readonly TextEdit[];
}

/** The input property names of the tool a node (a handler, a step's handler) belongs to. */
export function declaredNames(node: Node): string[] {
  let root = node;
  while (root.parent !== undefined) {
    root = root.parent;
  }
  const properties = findNodeAtLocation(root, [...getNodePath(node).slice(0, 2), 'inputSchema', 'properties']);
  const value = properties === undefined ? undefined : (getNodeValue(properties) as unknown);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : [];
}

/**
 * One edit that turns `before` into `after`: the text between their common start and end, so
 * several modifications of one text reach the editor as a single replacement.
 */
export function singleEdit(before: string, after: string): TextEdit {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) {
    start++;
  }
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) {
    end++;
  }
  return { offset: start, length: before.length - start - end, newText: after.slice(start, after.length - end) };
}
