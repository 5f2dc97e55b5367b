import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseUriTemplate, UriTemplateError } from '../../../src/core/resources/uri-template';

describe('RFC 6570 level 1 URI templates', () => {
  test('matches a URI and gives the decoded values; expands them back, percent-encoded', () => {
    const template = parseUriTemplate('test://template/{id}/data');
    assert.deepEqual(template.variables, ['id']);
    assert.deepEqual(template.match('test://template/123/data'), { id: '123' });
    assert.deepEqual(template.match('test://template/a%20b/data'), { id: 'a b' });
    assert.equal(template.expand({ id: 'a b' }), 'test://template/a%20b/data');
  });

  test('a variable never spans a "/", "?" or "#", and literal text is literal (no regex)', () => {
    const template = parseUriTemplate('docs://x.y/{name}');
    assert.equal(template.match('docs://x.y/a/b'), undefined);
    assert.equal(template.match('docs://x.y/a?b'), undefined);
    assert.equal(template.match('docs://xzy/a'), undefined);
    assert.equal(template.match('docs://x.y/'), undefined);
  });

  test('a malformed %-escape matches nothing', () => {
    assert.equal(parseUriTemplate('a://{x}').match('a://%E0%A4%A'), undefined);
  });

  test('several variables', () => {
    assert.deepEqual(parseUriTemplate('repo://{owner}/{name}').match('repo://me/tools'), { owner: 'me', name: 'tools' });
  });

  for (const [text, fragment] of [
    ['a://{+x}', 'not a level 1 variable'],
    ['a://{x,y}', 'not a level 1 variable'],
    ['a://{x', 'not closed'],
    ['a://x}', 'closes no'],
    ['a://{x}/{x}', 'appears twice'],
    ['a://fixed', 'no {variable}'],
  ] as const) {
    test(`refuses ${text}`, () => {
      assert.throws(() => parseUriTemplate(text), (error: unknown) => error instanceof UriTemplateError && error.message.includes(fragment));
    });
  }
});
