import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { compileProblemMatchers, matchProblems, MAX_MATCH_CHECKS, type MatchedProblem, type ProblemMatcher } from '../../../src/core/imports/problem-matchers';
import { importVsCodeTasks } from '../../../src/core/imports/import-tasks';
import { platformNamed } from '../../../src/core/platform/platform';
import { ImportFixture, reasonFor, toolNamed } from './import-fixture';

const FOLDER = '/work/project';
const context = { folder: FOLDER, resolve: (text: string) => text.replace('${workspaceFolder}', FOLDER) };

function matcherOf(value: unknown): ProblemMatcher {
  const compiled = compileProblemMatchers(value, context);
  assert.ok(!('reason' in compiled), JSON.stringify(compiled));
  assert.ok(compiled.matcher !== undefined);
  return compiled.matcher;
}

/** Every problem of `output` (the outcome must not say the matcher stopped). */
function problemsOf(matcher: ProblemMatcher | undefined, output: string): readonly MatchedProblem[] {
  assert.ok(matcher !== undefined);
  const outcome = matchProblems(matcher, output);
  assert.equal(outcome.stopped, undefined);
  return outcome.problems;
}

describe('problem matchers: the built-ins', () => {
  test('$tsc reads both of tsc\'s formats, relative to the folder, through colour codes', () => {
    const output = [
      'src/a.ts(3,7): error TS2322: Type \'string\' is not assignable to type \'number\'.',
      '\x1b[96msrc/b.ts\x1b[0m:\x1b[93m10\x1b[0m:\x1b[93m2\x1b[0m - \x1b[93mwarning\x1b[0m\x1b[90m TS6133: \x1b[0m\'x\' is declared but its value is never read.',
      'Found 2 errors.',
    ].join('\n');
    assert.deepEqual(problemsOf(matcherOf('$tsc'), output), [
      { file: `${FOLDER}/src/a.ts`, line: 3, column: 7, severity: 'error', message: 'Type \'string\' is not assignable to type \'number\'.', code: '2322' },
      { file: `${FOLDER}/src/b.ts`, line: 10, column: 2, severity: 'warning', message: '\'x\' is declared but its value is never read.', code: '6133' },
    ]);
  });

  test('$gcc, $eslint-stylish (several lines) and $msCompile', () => {
    assert.deepEqual(problemsOf(matcherOf('$gcc'), 'main.c:5:3: error: expected \';\' before \'}\' token\nIn file included from x.c:1:\n/usr/include/x.h:9:1: fatal error: y.h: No such file'), [
      { file: `${FOLDER}/main.c`, line: 5, column: 3, severity: 'error', message: 'expected \';\' before \'}\' token' },
      { file: '/usr/include/x.h', line: 9, column: 1, severity: 'error', message: 'y.h: No such file' },
    ]);
    const stylish = ['', '/work/project/src/a.js', '  1:10  error    \'x\' is defined but never used  no-unused-vars', '  2:1   warning  Unexpected console statement   no-console', '', '/work/project/src/b.js', '  7:3  error  Missing semicolon  semi', '', '✖ 3 problems (2 errors, 1 warning)'].join('\n');
    assert.deepEqual(problemsOf(matcherOf('$eslint-stylish'), stylish), [
      { file: '/work/project/src/a.js', line: 1, column: 10, severity: 'error', message: '\'x\' is defined but never used', code: 'no-unused-vars' },
      { file: '/work/project/src/a.js', line: 2, column: 1, severity: 'warning', message: 'Unexpected console statement', code: 'no-console' },
      { file: '/work/project/src/b.js', line: 7, column: 3, severity: 'error', message: 'Missing semicolon', code: 'semi' },
    ]);
    assert.deepEqual(problemsOf(matcherOf('$msCompile'), '  1>C:\\src\\a.cpp(10,5,10,9): error C2065: \'x\': undeclared identifier'), [
      { file: 'C:\\src\\a.cpp', line: 10, column: 5, endLine: 10, endColumn: 9, severity: 'error', message: '\'x\': undeclared identifier', code: 'C2065' },
    ]);
  });
});

describe('problem matchers: inline patterns', () => {
  test('a single-line pattern with its groups, severity and a fileLocation base', () => {
    const matcher = matcherOf({ owner: 'lint', severity: 'warning', fileLocation: ['relative', '${workspaceFolder}/pkg'], pattern: { regexp: '^LINT (\\S+) line (\\d+): (.*)$', file: 1, line: 2, message: 3 } });
    assert.deepEqual(problemsOf(matcher, 'noise\nLINT x.go line 12: shadowed variable\n'), [{ file: `${FOLDER}/pkg/x.go`, line: 12, severity: 'warning', message: 'shadowed variable' }]);
  });

  test('a lone pattern takes VS Code\'s default groups (file 1, line 2, column 3, message 5)', () => {
    const matcher = matcherOf({ pattern: { regexp: '^(.*):(\\d+):(\\d+):\\s+(\\w+):\\s+(.*)$', severity: 4 } });
    assert.deepEqual(problemsOf(matcher, 'a.py:3:4: warning: unused'), [{ file: `${FOLDER}/a.py`, line: 3, column: 4, severity: 'warning', message: 'unused' }]);
  });

  test('several lines: the first names the file, a looping last one reports each problem', () => {
    const matcher = matcherOf({ fileLocation: 'absolute', pattern: [{ regexp: '^FILE (.*)$', file: 1 }, { regexp: '^\\s+(\\d+): (.*)$', line: 1, message: 2, loop: true }] });
    assert.deepEqual(problemsOf(matcher, 'FILE /a\n  1: one\n  2: two\nFILE /b\n  3: three\n'), [
      { file: '/a', line: 1, severity: 'error', message: 'one' },
      { file: '/a', line: 2, severity: 'error', message: 'two' },
      { file: '/b', line: 3, severity: 'error', message: 'three' },
    ]);
  });

  test('an array of matchers reports the problems of each; an unknown name is skipped and said', () => {
    const compiled = compileProblemMatchers(['$tsc', '$go-vet', { pattern: { regexp: '^E (\\S+) (\\d+) (.*)$', file: 1, line: 2, message: 3 } }], context);
    assert.ok(!('reason' in compiled) && compiled.matcher !== undefined);
    assert.deepEqual(compiled.skipped, ['$go-vet']);
    assert.equal(problemsOf(compiled.matcher, 'a.ts(1,1): error TS1: x\nE b.c 2 y').length, 2);
  });

  test('a pattern the linear-time engine cannot run is refused with why; one that backtracks in JavaScript runs at once', () => {
    const lookahead = compileProblemMatchers({ pattern: { regexp: '^(?=x)(.*):(\\d+)$' } }, context);
    assert.ok('reason' in lookahead);
    assert.match(lookahead.reason, /linear-time .*lookahead/);
    // ^(a+)+$ against 50,000 a's and a b takes JavaScript's engine longer than the age of the universe.
    const matcher = matcherOf({ pattern: { regexp: '^((a+)+)$', file: 1, line: 1, message: 1 } });
    assert.deepEqual(problemsOf(matcher, `${'a'.repeat(50_000)}b`), []);
  });

  test('matching has a budget of line × pattern checks: past it, the outcome says where the matcher stopped', () => {
    // The first pattern matches every line, the second mostly fails on the next: two checks a line, the budget ends half-way.
    const everyLine = matcherOf({ pattern: [{ regexp: '^(\\S+)$', file: 1 }, { regexp: '^never (\\d+)$', line: 1, message: 1 }] });
    const lines = MAX_MATCH_CHECKS;
    const output = Array.from({ length: lines }, (_, i) => (i % 10 === 9 ? `never ${i}` : String(i))).join('\n');
    const outcome = matchProblems(everyLine, output);
    assert.match(outcome.stopped ?? '', new RegExp(`^the problem matcher inline pattern .* stopped at line \\d+ of ${lines}: reading on would take more than ${MAX_MATCH_CHECKS} checks`));
    const stoppedAt = Number(/stopped at line (\d+)/.exec(outcome.stopped ?? '')?.[1]);
    assert.ok(stoppedAt > lines / 3 && stoppedAt < (lines * 2) / 3, `stopped at line ${stoppedAt}`);
    assert.ok(outcome.problems.length > 0);
    // A line of 1 MB counts as a thousand lines of 1,000 characters.
    const long = matchProblems(matcherOf({ pattern: { regexp: '^(x+):(\\d+): (.*)$' } }), Array.from({ length: MAX_MATCH_CHECKS / 1000 + 1 }, () => 'x'.repeat(1_000_000)).join('\n'));
    assert.match(long.stopped ?? '', /stopped at line 201 of 201/);
    assert.equal(matchProblems(everyLine, output.slice(0, 1000)).stopped, undefined);
  });
});

describe('problem matchers on imported tasks', () => {
  let fixture: ImportFixture;
  beforeEach(() => {
    fixture = new ImportFixture();
  });
  afterEach(() => {
    fixture.dispose();
  });

  test('a task\'s $tsc matcher reads the problems of its real output; a bad pattern makes it not served', async () => {
    fixture.write('.vscode/tasks.json', JSON.stringify({
      version: '2.0.0',
      tasks: [
        { label: 'check', type: 'shell', command: 'echo "src/main.ts(4,9): error TS2304: Cannot find name \'foo\'."; exit 2', problemMatcher: '$tsc' },
        { label: 'bad', type: 'shell', command: 'true', problemMatcher: { pattern: { regexp: '(a)\\1' } } },
        { label: 'other', type: 'shell', command: 'true', problemMatcher: ['$someExtension'] },
      ],
    }));
    const result = await importVsCodeTasks({ folder: fixture.folder, platform: platformNamed('linux') });
    const check = toolNamed(result, 'task-check');
    assert.match(check.description, /Reports problems found by \$tsc\./);
    const ran = await fixture.run(check);
    assert.equal(ran.isError, true);
    assert.deepEqual(problemsOf(check.problemMatcher, ran.text), [{ file: join(fixture.path, 'src/main.ts'), line: 4, column: 9, severity: 'error', message: 'Cannot find name \'foo\'.', code: '2304' }]);
    assert.match(reasonFor(result, 'bad'), /backreferences/);
    assert.match(toolNamed(result, 'task-other').description, /The problem matcher \$someExtension is not known here; its problems are not reported\./);
  });
});
