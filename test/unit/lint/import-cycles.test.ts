/**
 * No import circle in src/: a module graph with a circle has no order a reader (or a bundler's
 * initialisation) can follow, and a type-only circle is where a value import lands next. The
 * graph is read with TypeScript's own pre-processor (every `import`, `export ... from` and
 * `import type`), relative imports resolved to files under src/.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import * as ts from 'typescript';

const SRC = path.resolve(__dirname, '../../../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Each file's relative imports, resolved to files of `files`. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = importedFiles
        .map(({ fileName }) => fileName)
        .filter((name) => name.startsWith('.'))
        .map((name) => path.resolve(path.dirname(file), name))
        .flatMap((base) => [`${base}.ts`, path.join(base, 'index.ts'), base].filter((candidate) => known.has(candidate)).slice(0, 1));
      return [file, targets];
    }),
  );
}

/** The strongly connected components with more than one module (Tarjan's algorithm, iterative). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) {
      continue;
    }
    const work: Array<{ node: string; next: number }> = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; next: number };
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const target = edges[frame.next++] as string;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) ?? 0, index.get(target) ?? 0));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) {
        low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(frame.node) ?? 0));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop();
          if (member !== undefined) {
            onStack.delete(member);
            component.push(member);
          }
        } while (member !== undefined && member !== frame.node);
        if (component.length > 1) {
          found.push(component);
        }
      }
    }
  }
  return found;
}

describe('import circles', () => {
  test('finds a circle when there is one (the check works)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    assert.deepEqual(circles(graph).map((component) => [...component].sort()), [['a', 'b', 'c']]);
  });

  test('src/ has none, type-only imports included', () => {
    const files = sourceFiles(SRC);
    assert.ok(files.length > 200, `read ${files.length} files`);
    const found = circles(importGraph(files)).map((component) => component.map((file) => path.relative(SRC, file)).sort().join(' -> '));
    assert.deepEqual(found, [], 'move the shared type or function down to a module both can import (ARCHITECTURE.md, "Floors inside src/core")');
  });
});
