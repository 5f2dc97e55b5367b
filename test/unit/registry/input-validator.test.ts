import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { InputValidator } from '../../../src/core/registry/input-validator';
import type { JsonObjectSchema } from '../../../src/core/types';

describe('InputValidator', () => {
  const withDefaults: JsonObjectSchema = {
    type: 'object',
    properties: { pattern: { type: 'string' }, options: { type: 'object', properties: { depth: { type: 'integer', default: 2 } }, default: {} } },
    required: ['pattern'],
  };
  const plain: JsonObjectSchema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false };

  test('applies defaults, nested ones too, to a copy: the caller\'s object stays as sent', () => {
    const input = { pattern: 'x' };
    const checked = new InputValidator().check(withDefaults, input);
    assert.deepEqual(checked, { ok: true, input: { pattern: 'x', options: { depth: 2 } } });
    assert.deepEqual(input, { pattern: 'x' });
  });

  test('a schema without defaults validates the input as sent', () => {
    const validator = new InputValidator();
    const input = { path: 'a.txt' };
    assert.deepEqual(validator.check(plain, input), { ok: true, input: { path: 'a.txt' } });
    assert.deepEqual(input, { path: 'a.txt' });
    const refused = validator.check(plain, { path: 1, extra: true });
    assert.equal(refused.ok, false);
    assert.match(refused.ok ? '' : refused.message, /"path": must be string/);
    assert.match(refused.ok ? '' : refused.message, /unknown property "extra"/);
  });

  test('the same schema text compiled once serves both objects; missing input is an empty object', () => {
    const validator = new InputValidator();
    const copy = structuredClone(withDefaults);
    assert.equal(validator.check(withDefaults, { pattern: 'a' }).ok, true);
    assert.deepEqual(validator.check(copy, { pattern: 'b' }), { ok: true, input: { pattern: 'b', options: { depth: 2 } } });
    assert.deepEqual(validator.check({ type: 'object', properties: { n: { type: 'integer', default: 1 } } }, undefined), { ok: true, input: { n: 1 } });
    assert.equal(validator.check(plain, [1]).ok, false);
  });

  test('a format Ajv does not know is ignored without a word on the console (logs go through the Logger)', (t) => {
    const warn = t.mock.method(console, 'warn', () => undefined);
    const log = t.mock.method(console, 'log', () => undefined);
    const schema: JsonObjectSchema = { type: 'object', properties: { site: { type: 'string', format: 'uri' } } };
    assert.deepEqual(new InputValidator().check(schema, { site: 'not a uri' }), { ok: true, input: { site: 'not a uri' } });
    assert.equal(warn.mock.callCount(), 0);
    assert.equal(log.mock.callCount(), 0);
  });
});
