import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JsonObjectSchema } from '../../../src/core/types';
import type { ParameterStep } from '../../../src/extension/view-text/tool-input';
import { choicesOf, initialText, missingRequired, parameterSteps, parseAnswer, pickChoices, promptOf, valueLabel } from '../../../src/extension/view-text/tool-input';

const SCHEMA: JsonObjectSchema = {
  type: 'object',
  properties: {
    glob: { type: 'string', description: 'Files to search' },
    query: { type: 'string', minLength: 1 },
    maxResults: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    ratio: { type: 'number' },
    regex: { type: 'boolean' },
    level: { enum: ['low', 'high', 3], default: 'high' },
    tags: { type: 'array', items: { type: 'string' } },
    maybe: { type: ['string', 'null'] },
    either: { type: ['string', 'number'] },
  },
  required: ['query', 'tags'],
};

const steps = parameterSteps(SCHEMA);
const step = (name: string): ParameterStep => {
  const found = steps.find((candidate) => candidate.name === name);
  assert.ok(found, name);
  return found;
};

describe('Run Tool parameter steps', () => {
  test('one step per parameter, required ones first, each with the kind of input it takes', () => {
    assert.deepEqual(steps.map((s) => `${s.name}:${s.kind}:${s.required ? 'required' : 'optional'}`), [
      'query:string:required',
      'tags:json:required',
      'glob:string:optional',
      'maxResults:integer:optional',
      'ratio:number:optional',
      'regex:boolean:optional',
      'level:enum:optional',
      'maybe:string:optional',
      'either:json:optional',
    ]);
  });

  test('defaults are pre-filled as a person types them', () => {
    assert.equal(initialText(step('maxResults')), '100');
    assert.equal(initialText(step('glob')), '');
    assert.equal(initialText(step('glob'), '*.ts'), '*.ts');
    assert.equal(initialText(step('tags'), ['a']), '["a"]');
  });

  test('the prompt has the description, the kind, the range and whether it can be skipped', () => {
    assert.equal(promptOf(step('glob')), 'Files to search — text (optional: leave empty to skip)');
    assert.equal(promptOf(step('maxResults')), 'a whole number, 1 to 1000 (optional: leave empty for the default)');
    assert.equal(promptOf(step('query')), 'text (required)');
  });

  test('numbers and whole numbers are checked as typed, with messages a person reads', () => {
    assert.deepEqual(parseAnswer(step('maxResults'), '20'), { ok: true, skip: false, value: 20 });
    assert.deepEqual(parseAnswer(step('maxResults'), 'abc'), { ok: false, message: 'Type a whole number, such as 10.' });
    assert.deepEqual(parseAnswer(step('maxResults'), '2.5'), { ok: false, message: 'Type a whole number: 2.5 has a fraction.' });
    assert.deepEqual(parseAnswer(step('maxResults'), '0'), { ok: false, message: 'Type 1 or more.' });
    assert.deepEqual(parseAnswer(step('maxResults'), '5000'), { ok: false, message: 'Type 1000 or less.' });
    assert.deepEqual(parseAnswer(step('ratio'), '2.5'), { ok: true, skip: false, value: 2.5 });
    assert.equal(parseAnswer(step('ratio'), 'x').ok, false);
  });

  test('empty skips an optional parameter; a required one, text too, is refused with a message', () => {
    assert.deepEqual(parseAnswer(step('glob'), '  '), { ok: true, skip: true });
    assert.deepEqual(parseAnswer(step('maxResults'), ''), { ok: true, skip: true });
    assert.deepEqual(parseAnswer(step('query'), ''), { ok: false, message: '"query" is required: type a value.' });
    assert.deepEqual(parseAnswer(step('query'), '   '), { ok: false, message: '"query" is required: type a value.' });
    assert.deepEqual(parseAnswer(step('query'), ' a b '), { ok: true, skip: false, value: ' a b ' });
  });

  test('the whole input as JSON: a missing required parameter or an empty required text is refused', () => {
    assert.equal(missingRequired(SCHEMA, { query: 'x', tags: [] }), undefined);
    assert.equal(missingRequired(SCHEMA, { tags: [] }), '"query" is required: give it a value.');
    assert.equal(missingRequired(SCHEMA, { query: ' ', tags: [] }), '"query" is required: an empty text is no value.');
  });

  test('booleans and enums are picks; JSON parameters take JSON', () => {
    assert.deepEqual(choicesOf(step('regex')), [true, false]);
    assert.deepEqual(choicesOf(step('level')), ['low', 'high', 3]);
    assert.deepEqual(['low', 'high', 3].map(valueLabel), ['low', 'high', '3']);
    assert.deepEqual(parseAnswer(step('tags'), '["a", "b"]'), { ok: true, skip: false, value: ['a', 'b'] });
    assert.equal(parseAnswer(step('tags'), '[a').ok, false);
    assert.deepEqual(parseAnswer(step('level'), '3'), { ok: true, skip: false, value: 3 });
    assert.deepEqual(parseAnswer(step('level'), '"medium"'), { ok: false, message: 'Choose one of "low", "high", 3.' });
  });

  test('an optional pick opens on "Skip" (the tool\'s default), never on a value the person did not choose', () => {
    const labels = (name: string, previous?: unknown) => {
      const { choices, active } = pickChoices(step(name), previous);
      return { labels: choices.map((choice) => `${choice.label}${choice.description === undefined ? '' : ` (${choice.description})`}`), active };
    };
    assert.deepEqual(labels('regex'), { labels: ['Skip (leave it out)', 'true', 'false'], active: 0 });
    assert.deepEqual(labels('level'), { labels: ['Skip (the tool uses its default, high)', 'low', 'high (default)', '3'], active: 0 });
    // back to a step: the answer given there
    assert.deepEqual(labels('regex', false).active, 2);
    const required = parameterSteps({ type: 'object', properties: { force: { type: 'boolean', default: false }, dry: { type: 'boolean' } }, required: ['force', 'dry'] });
    assert.deepEqual(required.map((entry) => pickChoices(entry, undefined)).map(({ choices, active }) => [choices.map((choice) => choice.label), active]), [
      [['true', 'false'], 1],
      [['true', 'false'], undefined],
    ]);
  });

  test('a schema without properties asks nothing', () => {
    assert.deepEqual(parameterSteps({ type: 'object' }), []);
  });
});
