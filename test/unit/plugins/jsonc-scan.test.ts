import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { findNodeAtLocation, parse, parseTree } from 'jsonc-parser';
import type { Node, ParseError } from 'jsonc-parser';
import type { JsonPath } from '../../../src/core/plugins/locate';
import { extentOf, nodeAt, propertyKeyAt, scanToolExtents } from '../../../src/core/plugins/locate';
import { parseJsonc, stringEnd } from '../../../src/core/plugins/parse-jsonc';
import { extentByScan } from '../../../src/core/plugins/scan-locate';

/** A small seeded generator (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random JSONC: nested values, comments, trailing commas, escapes, and now and then an error. */
function documentOf(next: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const gap = (): string => pick(['', ' ', '\n  ', '\t', ' // c, ] } "x\n', ' /* a, } */ ', '/**/', '\r\n']);
  const strings = ['"a"', '"tools"', '"x\\"y"', '"\\\\"', '"\\\\\\""', '"// no"', '"/* no */"', '"{[,]}"', '"é\\u00e9"', '""'];
  const value = (depth: number): string => {
    const kind = depth > 3 ? 0 : Math.floor(next() * 4);
    if (kind === 0) {
      return pick([...strings, '1', '-2.5e3', 'true', 'null', 'false']);
    }
    const count = Math.floor(next() * 4);
    const items = Array.from({ length: count }, () =>
      kind === 1 ? `${gap()}${value(depth + 1)}` : `${gap()}${pick(strings)}${gap()}:${gap()}${value(depth + 1)}`,
    );
    const trailing = count > 0 && next() < 0.3 ? `,${gap()}` : '';
    const [open, close] = kind === 1 ? ['[', ']'] : ['{', '}'];
    return `${open}${items.join(',')}${trailing}${gap()}${close}`;
  };
  const root = `${gap()}{${gap()}"tools"${gap()}:${gap()}[${gap()}${value(1)}${gap()},${gap()}{"name":${pick(strings)}}${next() < 0.3 ? ',' : ''}]${gap()},${gap()}"b":${value(1)}}${gap()}`;
  if (next() < 0.15) {
    const at = Math.floor(next() * root.length);
    return `${root.slice(0, at)}${pick([',', '"', '/*', '}', ',,', ':'])}${root.slice(at)}`;
  }
  return root;
}

/** Paths of a few nodes of the tree, and of a few places one step past them (which do not exist). */
function pathsIn(tree: Node, next: () => number): JsonPath[] {
  const paths: JsonPath[] = [];
  const walk = (node: Node, path: JsonPath): void => {
    if (next() < 0.3) {
      paths.push(path);
    }
    if (next() < 0.1) {
      paths.push([...path, next() < 0.5 ? 'missing' : 7]);
    }
    if (node.type === 'array') {
      (node.children ?? []).forEach((child, index) => walk(child, [...path, index]));
    } else if (node.type === 'object') {
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        // A key that appears twice: the tree and a scan may pick different ones; JSON.parse keeps the last.
        const twice = (node.children ?? []).filter((other) => other.children?.[0]?.value === key?.value).length > 1;
        if (key !== undefined && value !== undefined && !twice) {
          walk(value, [...path, key.value as string]);
        }
      }
    }
  };
  walk(tree, []);
  return paths;
}

const OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false };

/** Of `count` random documents, those that parse without an error, with their tree. */
function* parsedDocuments(next: () => number, count: number): Generator<{ text: string; tree: Node }> {
  for (let n = 0; n < count; n++) {
    const text = documentOf(next);
    const errors: ParseError[] = [];
    const tree = parseTree(text, errors, OPTIONS);
    if (errors.length === 0 && tree !== undefined) {
      yield { text, tree };
    }
  }
}

describe('JSONC fast paths agree with jsonc-parser', () => {
  test('parseJsonc: same value, or an error at the same offset, on 3,000 random documents', () => {
    const next = random(20261122);
    let withErrors = 0;
    for (let n = 0; n < 3000; n++) {
      const text = documentOf(next);
      const errors: ParseError[] = [];
      const expected = parse(text, errors, OPTIONS) as unknown;
      const parsed = parseJsonc(text);
      if (errors.length > 0) {
        withErrors++;
        assert.equal(parsed.ok, false, text);
        assert.equal(parsed.ok ? -1 : parsed.error.offset, errors[0]?.offset, text);
      } else {
        assert.deepEqual(parsed, { ok: true, value: expected }, text);
      }
    }
    assert.ok(withErrors > 100 && withErrors < 2000, `${withErrors} documents with errors`);
  });

  test('scanToolExtents: the tools of the tree, on random documents that parse', () => {
    for (const { text, tree } of parsedDocuments(random(7), 3000)) {
      const tools = tree.children?.find((property) => property.children?.[0]?.value === 'tools')?.children?.[1];
      const toolNodes = tools?.type === 'array' ? (tools.children ?? []).filter((node) => node.type === 'object') : [];
      assert.deepEqual(scanToolExtents(text), toolNodes.map((node) => ({ start: node.offset, end: node.offset + node.length })), text);
    }
  });

  test('extentByScan: the extent the tree gives, for paths that exist, half exist or not at all', () => {
    const next = random(31);
    let found = 0;
    let keys = 0;
    for (const { text, tree } of parsedDocuments(next, 2000)) {
      for (const path of pathsIn(tree, next)) {
        const exact = findNodeAtLocation(tree, [...path]);
        found += exact === undefined ? 0 : 1;
        assert.deepEqual(extentByScan(text, path), extentOf(exact ?? nodeAt(tree, path)), `${JSON.stringify(path)} in ${text}`);
        const object = nodeAt(tree, path);
        const key: unknown = object.type === 'object' ? object.children?.[0]?.children?.[0]?.value : undefined;
        if (typeof key === 'string' && findNodeAtLocation(tree, [...path]) === object) {
          keys++;
          const keyNode = propertyKeyAt(tree, path, key) as Node;
          assert.deepEqual(extentByScan(text, path, { key }), { start: keyNode.offset, end: keyNode.offset + keyNode.length }, `key ${key} at ${JSON.stringify(path)} in ${text}`);
        }
      }
    }
    assert.ok(found > 500 && keys > 100, `${found} paths found, ${keys} keys`);
  });

  test('stringEnd: an odd run of backslashes escapes the quote, an even one does not', () => {
    assert.equal(stringEnd('"a\\"b"', 0), 5);
    assert.equal(stringEnd('"a\\\\"b"', 0), 4);
    assert.equal(stringEnd('"\\\\\\""', 0), 5);
    assert.equal(stringEnd('"open', 0), 5);
  });
});
