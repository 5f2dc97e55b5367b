/**
 * Type stripping with Node's own `module.stripTypeScriptTypes`: positions kept, errors placed at
 * the module's line and column (Node gives them only in its error's snippet), and no
 * ExperimentalWarning on the stderr that MCP users read as the server's log.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { locateSyntaxError, stripTypes } from '../../../src/core/handlers/code/strip-types';

function problemAt(source: string): string {
  const stripped = stripTypes(source, 'tools/m.ts');
  assert.ok('problem' in stripped, `expected a problem for ${JSON.stringify(source)}`);
  return `${stripped.problem.line}:${stripped.problem.column}: ${stripped.problem.message}`;
}

describe('stripTypes', () => {
  test('types become blanks: every line and column of the code stays where it was', () => {
    const source = 'const a: number = 1;\nfunction f(x: string): void {}\nexport default (input: { n: number }) => input.n * a;\n';
    const stripped = stripTypes(source, 'tools/m.ts');
    assert.ok('code' in stripped);
    assert.equal(stripped.code.split('\n').length, source.split('\n').length);
    assert.equal(stripped.code.split('\n')[0], 'const a         = 1;');
    assert.equal(stripped.code.indexOf('input.n * a'), source.indexOf('input.n * a'));
  });

  test('TypeScript-only runtime syntax is refused at its line and column, saying why', () => {
    assert.match(problemAt('export class A {\n  constructor(private x: number) {}\n}\n'), /^2:23: TypeScript parameter property is not supported in strip-only mode \(Node's type stripping erases types only/);
    assert.match(problemAt('namespace N { export const a = 1 }\n'), /^1:1: TypeScript namespace declaration is not supported/);
  });

  test('a syntax error is placed by its caret: after tabs, after wide characters, in UTF-16 columns', () => {
    assert.match(problemAt('const a = 1;\nlet b: = 2;\n'), /^2:8: Unexpected token `=`/);
    assert.match(problemAt('\tconst x = 1;\n\t\tenum E { A }\n'), /^2:3: TypeScript enum is not supported/);
    assert.match(problemAt('const s = "é€😀"; let q: = 1;\n'), /^1:26: Unexpected token `=`/);
  });

  test('a span over several lines, or the end of the file, is placed at its line\'s first character', () => {
    assert.match(problemAt('const ok = 1;\n  enum A {\n  B,\n  C\n}\n'), /^2:3: TypeScript enum is not supported/);
    assert.match(problemAt('const a = 1;\n\n\n   foo(\n'), /^4:4: /);
  });

  test('locateSyntaxError: a position for broken source, none for valid source', () => {
    assert.deepEqual(locateSyntaxError('const a = ;\n', 'tools/m.mjs')?.line, 1);
    assert.equal(locateSyntaxError('export default () => 1;\n', 'tools/m.mjs'), undefined);
  });

  test('Node\'s "experimental feature" warning is not printed; other warnings still are', () => {
    const compiled = path.join(__dirname, '../../../src/core/handlers/code/strip-types.js');
    const script = `const { stripTypes } = require(${JSON.stringify(compiled)}); stripTypes('const a: number = 1;', 'm.ts'); process.emitWarning('kept', 'ExperimentalWarning');`;
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /stripTypeScriptTypes/);
    assert.match(run.stderr, /ExperimentalWarning: kept/);
  });
});
