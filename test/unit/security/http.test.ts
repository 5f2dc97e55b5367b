// HTTP handler attacks: secrets in headers must reach only the origin the plugin named, and must
// never be echoed into a result the model reads.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { httpHandler } from '../../../src/core/handlers/http/handler';
import type { HttpHandlerSpec } from '../../../src/core/handlers/http/spec';
import { DEFAULT_LIMITS } from '../../../src/core/types';
import type { JsonObjectSchema, ToolInput, ToolResult } from '../../../src/core/types';
import { memoryLogger } from '../helpers/fake-tools';
import { runAsRegistry } from '../helpers/handler-run';

const SCHEMA: JsonObjectSchema = { type: 'object', properties: { id: { type: 'string' } } };

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; base: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { server, base: `http://127.0.0.1:${port}` };
}

function call(spec: Omit<HttpHandlerSpec, 'type'>, input: ToolInput, env: Record<string, string>): Promise<ToolResult> {
  const target = { toolName: 'sec-http', inputSchema: SCHEMA, folder: { name: 'w', path: process.cwd() } };
  return runAsRegistry(httpHandler, { type: 'http', ...spec }, target, input, { folders: [], signal: new AbortController().signal, limits: DEFAULT_LIMITS, logger: memoryLogger(), env });
}

describe('http handler: redirects and secret headers', () => {
  let origin: { server: Server; base: string };
  let other: { server: Server; base: string };
  const seenByOther: IncomingMessage['headers'][] = [];

  before(async () => {
    other = await listen((req, res) => {
      seenByOther.push(req.headers);
      res.end('other host');
    });
    origin = await listen((req, res) => {
      const url = req.url ?? '';
      if (url.startsWith('/same')) {
        res.writeHead(302, { location: '/final' }).end();
      } else if (url.startsWith('/away')) {
        // An open redirect on the API host: the model picks the path, the host sends it away.
        // "localhost" vs "127.0.0.1": another origin on the same test machine.
        res.writeHead(302, { location: `${other.base.replace('127.0.0.1', 'localhost')}/steal` }).end();
      } else if (url.startsWith('/file')) {
        res.writeHead(302, { location: 'file:///etc/passwd' }).end();
      } else if (url.startsWith('/loop')) {
        res.writeHead(302, { location: '/loop' }).end();
      } else {
        res.end(JSON.stringify({ url, key: req.headers['x-api-key'] ?? null }));
      }
    });
  });

  after(() => {
    origin.server.closeAllConnections();
    other.server.closeAllConnections();
    origin.server.close();
    other.server.close();
  });

  test('a same-origin redirect is followed with the headers', async () => {
    const result = await call({ method: 'GET', url: `${origin.base}/{{id}}`, headers: { 'x-api-key': '${env:API_KEY}' } }, { id: 'same' }, { API_KEY: 'k1' });
    assert.equal(result.isError, false, result.text);
    assert.match(result.text, /"url":"\/final","key":"k1"/);
  });

  test('a cross-origin redirect does not carry the plugin\'s secret headers', async () => {
    seenByOther.length = 0;
    await call({ method: 'GET', url: `${origin.base}/{{id}}`, headers: { 'x-api-key': '${env:API_KEY}', 'private-token': 'literal-secret' } }, { id: 'away' }, { API_KEY: 'TOPSECRET' });
    for (const headers of seenByOther) {
      assert.equal(headers['x-api-key'], undefined, 'x-api-key leaked to another origin');
      assert.equal(headers['private-token'], undefined, 'private-token leaked to another origin');
    }
  });

  test('a redirect to file: is refused; a redirect loop ends', async () => {
    const file = await call({ method: 'GET', url: `${origin.base}/{{id}}` }, { id: 'file' }, {});
    assert.equal(file.isError, true);
    assert.doesNotMatch(file.text, /root:/);
    assert.match(file.text, /: refused to follow a redirect to a file: URL; only http: and https: are allowed\.$/);
    const loop = await call({ method: 'GET', url: `${origin.base}/{{id}}` }, { id: 'loop' }, {});
    assert.equal(loop.isError, true);
    assert.match(loop.text, /redirect/i);
    assert.match(loop.text, /: more than 5 redirects; stopped following them\.$/);
  });

  test('a header secret with CR/LF is refused without echoing the secret', async () => {
    const result = await call({ method: 'GET', url: `${origin.base}/x`, headers: { authorization: 'Bearer ${env:TOKEN}' } }, {}, { TOKEN: 'SUPER\r\nSECRET' });
    assert.equal(result.isError, true);
    assert.doesNotMatch(result.text, /SUPER|SECRET/);
    assert.match(result.text, /TOKEN/);
    assert.match(result.text, /^Tool "sec-http" failed: Environment variable TOKEN contains a line break or NUL byte.*nothing was sent/);
  });

  test('an error message does not show a password from the url', async () => {
    const result = await call({ method: 'GET', url: 'http://user:hunter2@127.0.0.1:1/{{id}}' }, { id: 'x' }, {});
    assert.equal(result.isError, true);
    assert.doesNotMatch(result.text, /hunter2/);
  });
});
