import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problemsByFile } from '../../../src/extension/view-text/task-problems';
import { compileProblemMatchers, matchProblems } from '../../../src/core/imports/problem-matchers';

describe('the problems of a call result, for the Problems panel', () => {
  test('what $tsc found in a real output, grouped by file', () => {
    const compiled = compileProblemMatchers('$tsc', { folder: '/ws', resolve: (text) => text });
    assert.ok('matcher' in compiled && compiled.matcher !== undefined);
    const output = "src/a.ts(3,7): error TS2322: Type 'string' is not assignable.\nsrc/b.ts(1,1): warning TS6133: 'x' is unused.\nsrc/a.ts(9,2): error TS1005: ';' expected.\n";
    const grouped = problemsByFile({ problems: matchProblems(compiled.matcher, output).problems });
    assert.deepEqual([...(grouped?.keys() ?? [])], ['/ws/src/a.ts', '/ws/src/b.ts']);
    assert.deepEqual(grouped?.get('/ws/src/a.ts')?.map((problem) => `${problem.line}:${problem.column ?? 0} ${problem.severity} ${problem.message}`), ["3:7 error Type 'string' is not assignable.", "9:2 error ';' expected."]);
  });

  test('no problems key: nothing to replace; an empty list clears; malformed entries are left out', () => {
    assert.equal(problemsByFile(undefined), undefined);
    assert.equal(problemsByFile({ other: 1 }), undefined);
    assert.deepEqual(problemsByFile({ problems: [] }), new Map());
    const grouped = problemsByFile({ problems: [{ file: '', line: 1, message: 'm', severity: 'error' }, { file: '/f', line: 0, message: 'm', severity: 'error' }, { file: '/f', line: 2, message: 'ok', severity: 'fatal' }, null, { file: '/f', line: 2, message: 'kept', severity: 'info' }] });
    assert.deepEqual([...(grouped?.values() ?? [])].flat().map((problem) => problem.message), ['kept']);
  });
});
