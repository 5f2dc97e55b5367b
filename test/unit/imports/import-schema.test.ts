import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { validatePluginFile } from '../../../src/core/plugins/schema-validation';

describe('the plugin schema: the import section', () => {
  test('a file may have import alone, with include, exclude and prefix', () => {
    const file = { import: [{ from: 'tasks' }, { from: 'npm-scripts', include: ['test', 'lint'], prefix: 'js-' }, { from: 'make', exclude: ['clean'] }, { from: 'just', prefix: '' }] };
    assert.deepEqual(validatePluginFile(file), []);
  });

  test('an unknown source, an unknown key and a bad prefix are each refused at their place', () => {
    const problems = validatePluginFile({ import: [{ from: 'gradle' }, { from: 'make', includes: ['x'] }, { from: 'tasks', prefix: 'a b' }] });
    const places = problems.map((problem) => `${problem.path.join('.')}${problem.key === undefined ? '' : `:${problem.key}`} ${problem.keyword}`);
    assert.deepEqual(places, ['import.0.from enum', 'import.1:includes additionalProperties', 'import.2.prefix pattern']);
    assert.match(problems[0]?.message ?? '', /tasks.*npm-scripts.*make.*just/);
  });

  test('an entry needs "from", and include names are strings', () => {
    const problems = validatePluginFile({ import: [{ include: ['x'] }, { from: 'make', include: [3] }] });
    assert.deepEqual(problems.map((problem) => `${problem.path.join('.')} ${problem.keyword}`), ['import.0 required', 'import.1.include.0 type']);
  });

  test('an empty file still needs one of tools, resources or import', () => {
    assert.notDeepEqual(validatePluginFile({ name: 'x' }), []);
  });
});
