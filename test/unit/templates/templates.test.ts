/**
 * The template module (src/core/templates): the one `${env:NAME}` grammar, the string form of a
 * value, and filling. The handlers' own tests prove each one uses it; these pin the grammar, and
 * the inputs whose handling changed when the four `${env:...}` scanners became this one.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { envProblems, sandboxEnv } from '../../../src/core/handlers/code/env';
import { expandHeaders, httpHandler } from '../../../src/core/handlers/http/handler';
import type { HttpHandlerSpec } from '../../../src/core/handlers/http/spec';
import { expandEnvValue } from '../../../src/core/handlers/shell/expand';
import {
  envReferenceProblem,
  fillEnvReferences,
  fillText,
  fillValue,
  fillWhole,
  hasEnvReference,
  parseTemplate,
  stringForm,
} from '../../../src/core/templates';
import { problemsOf } from '../helpers/handler-run';

const VALID = ['${env:HOME}', 'Bearer ${env:API_TOKEN}', '${env:_x1}${env:Y}', 'no reference at all', '$env:HOME', '{env:HOME}'];
const INVALID = ['${env:a-b}', '${env:}', 'x ${env:HOME', '${env:1ST}', '${env:A B}', '${env:${env:HOME}}', 'ok ${env:HOME} then ${env:bad.name}'];

describe('${env:NAME}: one grammar', () => {
  test('a reference names a variable: letters, digits and _, not starting with a digit', () => {
    for (const text of VALID) {
      assert.equal(envReferenceProblem(text), undefined, text);
    }
  });

  test('any other ${env: is a problem (unclosed, empty, a bad name), never literal text', () => {
    for (const text of INVALID) {
      assert.match(envReferenceProblem(text) ?? '', /must name an environment variable/, text);
    }
  });

  test('filling replaces each reference once: what a value brings is not read again', () => {
    const host: Record<string, string> = { A: '${env:B}', B: 'secret' };
    assert.equal(fillEnvReferences('[${env:A}] [${env:B}]', (name) => host[name] ?? ''), '[${env:B}] [secret]');
  });

  test('hasEnvReference sees any opening, valid or not (the http url refuses all of them)', () => {
    assert.equal(hasEnvReference('https://a/?k=${env:'), true);
    assert.equal(hasEnvReference('https://a/?k=$env'), false);
  });

  test('shell env values, http headers and code tool env values read the host the same way', () => {
    const host = { TOKEN: 't0k', OTHER: undefined };
    assert.equal(expandEnvValue(parseTemplate('a ${env:TOKEN} b'), {}, host), 'a t0k b');
    assert.equal(expandHeaders({ Authorization: 'Bearer ${env:TOKEN}' }, host, 'api')['Authorization'], 'Bearer t0k');
    assert.equal(sandboxEnv({ T: 'is-${env:TOKEN}' }, host)['T'], 'is-t0k');
  });
});

describe('inputs whose handling changed when the grammars became one', () => {
  const target = { toolName: 'api', inputSchema: { type: 'object' as const, properties: {} }, folder: { name: 'ws', path: process.cwd() } };
  const httpProblems = (headers: Record<string, string>) => problemsOf(httpHandler, { type: 'http', url: 'https://a.example/', headers } satisfies HttpHandlerSpec, target);

  test('http: an unclosed ${env: in a header is a load problem (it was sent as literal text)', () => {
    const found = httpProblems({ Authorization: 'Bearer ${env:TOKEN' });
    assert.deepEqual(found.map((problem) => problem.path), [['handler', 'headers', 'Authorization']]);
    assert.match(found[0]?.message ?? '', /must name an environment variable/);
  });

  test('http: a bad name in a header is worded as in shell env values', () => {
    assert.match(httpProblems({ 'X-Bad': '${env:1x}' })[0]?.message ?? '', /must name an environment variable: letters, digits and _/);
  });

  test('code: an env value whose ${env:...} names no variable is a load problem (it reached the module as literal text)', () => {
    for (const value of ['${env:a-b}', '${env:}', 'x ${env:HOME']) {
      const found = envProblems({ GOOD: '${env:HOME}', BAD: value });
      assert.deepEqual(found.map((problem) => problem.path), [['BAD']], value);
      assert.match(found[0]?.message ?? '', /must name an environment variable/);
    }
  });

  test('steps: a null value inside a `with` template fills in as empty text, as in every handler (it was "null")', () => {
    assert.equal(fillValue(parseTemplate('q={{v}}'), { v: null }), 'q=');
    assert.equal(fillValue(parseTemplate('{{v}}'), { v: null }), null, 'a whole placeholder still passes the value itself');
  });
});

describe('string forms and filling', () => {
  test('strings as they are, numbers and booleans by String, the rest as JSON', () => {
    assert.equal(stringForm('a b'), 'a b');
    assert.equal(stringForm(42), '42');
    assert.equal(stringForm(false), 'false');
    assert.equal(stringForm({ a: [1, 'x'] }), '{"a":[1,"x"]}');
    assert.equal(stringForm(null), 'null');
    assert.equal(stringForm(undefined), '');
  });

  test('fillText: absent values (undefined, null) become empty text; values are never re-scanned', () => {
    const parts = parseTemplate('[{{a}}|{{b}}|{{c}}|{{d}}]');
    assert.equal(fillText(parts, { a: '{{b}}', b: null, d: 3 }), '[{{b}}|||3]');
  });

  test('fillWhole: undefined when a value is absent, and maps only the template\'s own text', () => {
    const parts = parseTemplate('${env:X}-{{v}}');
    const upper = (text: string) => text.toUpperCase();
    assert.equal(fillWhole(parts, { v: 'value' }, upper), '${ENV:X}-value');
    assert.equal(fillWhole(parts, { v: null }), undefined);
  });

  test('fillValue: a whole placeholder keeps the value\'s type, anything else is text', () => {
    assert.deepEqual(fillValue(parseTemplate('{{n}}'), { n: 7 }), 7);
    assert.equal(fillValue(parseTemplate('n={{n}}'), { n: 7 }), 'n=7');
    assert.equal(fillValue(parseTemplate('{{ steps.build.stdout }}'), { 'steps.build.stdout': 'out' }), 'out');
  });
});
