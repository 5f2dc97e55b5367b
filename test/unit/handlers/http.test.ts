import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { expandUrl, httpHandler } from '../../../src/core/handlers/http/handler';
import { parseTemplate } from '../../../src/core/templates';
import type { HttpHandlerSpec } from '../../../src/core/handlers/http/spec';
import { DEFAULT_LIMITS } from '../../../src/core/types';
import type { JsonObjectSchema, ToolInput, ToolResult } from '../../../src/core/types';
import { memoryLogger } from '../helpers/fake-tools';
import { compiled, problemsOf, runAsRegistry } from '../helpers/handler-run';

/** What the server saw of one request. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const SCHEMA: JsonObjectSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    q: { type: 'string', default: 'fallback' },
    title: { type: 'string' },
    n: { type: 'number' },
    target: { type: 'string' },
    name: { type: 'string' },
  },
};
const TARGET = { toolName: 'api', inputSchema: SCHEMA, folder: { name: 'ws', path: process.cwd() } };
const check = (spec: HttpHandlerSpec) => problemsOf(httpHandler, spec, TARGET);

describe('http handler against a real server', () => {
  let server: Server;
  let base = '';
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  let bigResponse: { finished: boolean; closed: Promise<void> } | undefined;

  function route(req: IncomingMessage, res: ServerResponse, body: string): void {
    const url = req.url ?? '';
    if (url.startsWith('/hang')) {
      return; // never answers
    }
    if (url.startsWith('/status/404')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such item');
      return;
    }
    if (url.startsWith('/big')) {
      streamBig(res);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ method: req.method, url, headers: req.headers, body }));
  }

  /** 64 MB in 64 KB writes: far more than a capped reader should ever take in. */
  function streamBig(res: ServerResponse): void {
    let finished = false;
    const closed = new Promise<void>((resolve) => res.on('close', resolve));
    bigResponse = { get finished() { return finished; }, closed };
    res.writeHead(200, { 'content-type': 'text/plain' });
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let left = 1024;
    const write = (): void => {
      while (left > 0) {
        left -= 1;
        if (!res.write(chunk)) {
          res.once('drain', write);
          return;
        }
      }
      finished = true;
      res.end();
    };
    write();
  }

  before(async () => {
    server = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (part: Buffer) => parts.push(part));
      req.on('end', () => {
        const body = Buffer.concat(parts).toString('utf8');
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        route(req, res, body);
      });
    });
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    assert.ok(address !== null && typeof address === 'object');
    base = `http://127.0.0.1:${address.port}`;
  });

  after(async () => {
    for (const socket of sockets) {
      socket.destroy();
    }
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  function call(spec: Omit<HttpHandlerSpec, 'type'>, input: ToolInput, options: { env?: Record<string, string>; signal?: AbortSignal } = {}): Promise<ToolResult> {
    return runAsRegistry(httpHandler, { type: 'http', ...spec }, TARGET, input, {
      folders: [],
      signal: options.signal ?? new AbortController().signal,
      limits: DEFAULT_LIMITS,
      logger: memoryLogger(),
      env: options.env ?? {},
    });
  }

  function lastSeen(): Seen {
    const last = seen[seen.length - 1];
    assert.ok(last !== undefined, 'the server saw no request');
    return last;
  }

  test('GET percent-encodes values: the server sees the encoded path and query', async () => {
    const result = await call({ url: `${base}/items/{{id}}?q={{q}}`, method: 'GET' }, { id: 'a b/../c', q: 'x&y=z#frag' });
    assert.equal(result.isError, false);
    assert.match(result.text, /^HTTP 200 OK\n\n/);
    assert.equal(lastSeen().url, '/items/a%20b%2F..%2Fc?q=x%26y%3Dz%23frag');
    assert.equal(lastSeen().method, 'GET');
    assert.equal(lastSeen().body, '');
  });

  test('an absent value takes the schema default', async () => {
    await call({ url: `${base}/items/{{id}}?q={{q}}`, method: 'GET' }, { id: '1' });
    assert.equal(lastSeen().url, '/items/1?q=fallback');
  });

  test('POST (the default) sends the arguments not used in the URL as a JSON body', async () => {
    const result = await call({ url: `${base}/items/{{id}}` }, { id: '7', title: 'Fix it', n: 2 });
    assert.equal(result.isError, false);
    const request = lastSeen();
    assert.equal(request.method, 'POST');
    assert.equal(request.url, '/items/7');
    assert.equal(request.headers['content-type'], 'application/json');
    // With the schema's defaults, applied once when the input is validated.
    assert.deepEqual(JSON.parse(request.body), { title: 'Fix it', n: 2, q: 'fallback' });
  });

  test('header values take ${env:NAME} from the run environment', async () => {
    const headers = { Authorization: 'Bearer ${env:API_TOKEN}', 'X-Static': 'yes' };
    const result = await call({ url: `${base}/me`, method: 'GET', headers }, {}, { env: { API_TOKEN: 's3cret' } });
    assert.equal(result.isError, false);
    assert.equal(lastSeen().headers.authorization, 'Bearer s3cret');
    assert.equal(lastSeen().headers['x-static'], 'yes');
  });

  test('a missing environment variable is an error naming it, and nothing is sent', async () => {
    const before = seen.length;
    const result = await call({ url: `${base}/me`, method: 'GET', headers: { Authorization: 'Bearer ${env:API_TOKEN}' } }, {});
    assert.equal(result.isError, true);
    assert.match(result.text, /Environment variable API_TOKEN is not set; tool "api" needs it for the "Authorization" header/);
    assert.equal(seen.length, before);
  });

  test('a non-2xx status is an error result with the status and the body', async () => {
    const result = await call({ url: `${base}/status/404`, method: 'GET' }, {});
    assert.deepEqual(result, { isError: true, text: 'HTTP 404 Not Found\n\nno such item', details: { httpStatus: 404, ran: `GET ${base}/status/404`, stdout: 'no such item' } });
  });

  test('a server that never answers times out after the handler timeout', async () => {
    const started = performance.now();
    const result = await call({ url: `${base}/hang`, method: 'GET', timeout: 200 }, {});
    assert.equal(result.isError, true);
    assert.equal(result.text, `Tool "api" failed: Request to ${base}/hang timed out after 200 ms.`);
    assert.ok(performance.now() - started < 3000);
  });

  test('cancellation aborts a request in flight', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    const result = await call({ url: `${base}/hang`, method: 'GET' }, {}, { signal: controller.signal });
    assert.deepEqual(result, { isError: true, text: `Tool "api" failed: Request to ${base}/hang was cancelled.` });
    assert.ok(performance.now() - started < 3000);
  });

  test('a response over the cap is truncated with a note, and the rest is not read', async () => {
    const result = await call({ url: `${base}/big`, method: 'GET', maxResponseBytes: 1000 }, {});
    assert.equal(result.isError, false);
    const [status, body] = result.text.split('\n\n');
    assert.equal(status, 'HTTP 200 OK');
    assert.equal(body, `${'x'.repeat(1000)}\n[response truncated: only the first 1000 bytes were read (cap 1000 bytes)]`);
    assert.ok(bigResponse !== undefined);
    await bigResponse.closed;
    assert.equal(bigResponse.finished, false, 'the client read the whole 64 MB instead of stopping');
  });

  test('a connection failure is an error that says why', async () => {
    const result = await call({ url: 'http://127.0.0.1:1/x', method: 'GET', timeout: 2000 }, {});
    assert.equal(result.isError, true);
    assert.match(result.text, /^Tool "api" failed: Request to http:\/\/127\.0\.0\.1:1\/x failed: fetch failed/);
  });

  test('a URL that is not http(s) is refused at load, and again when the URL is filled in', () => {
    for (const url of ['ftp://127.0.0.1/x', 'file:///etc/passwd', 'javascript:alert(1)']) {
      assert.match(check({ type: 'http', url }).map((problem) => problem.message).join(), /must start with literal "http:\/\/"/, url);
      assert.throws(() => expandUrl(parseTemplate(url), {}, 8192), /^Error: Refused to send a request to a (ftp|file|javascript): URL/, url);
    }
  });
});

describe('expandUrl', () => {
  test('a whole-URL placeholder cannot switch the scheme: the encoded value is no URL', () => {
    for (const target of ['file:///etc/passwd', 'javascript:alert(1)', 'http://evil.example/']) {
      assert.throws(() => expandUrl(parseTemplate('{{target}}'), { target }, 8192), /does not form a valid URL/);
    }
  });

  test('values cannot change host, path structure or query', () => {
    const { url, used } = expandUrl(parseTemplate('https://api.example/v1/{{id}}?q={{q}}'), { id: 'x@evil:1/y', q: 'a&b' }, 8192);
    assert.equal(url.host, 'api.example');
    assert.equal(url.pathname, '/v1/x%40evil%3A1%2Fy');
    assert.equal(url.searchParams.get('q'), 'a&b');
    assert.deepEqual([...used], ['id', 'q']);
  });

  test('"." and ".." are refused in the path, where the URL parser would walk up', () => {
    for (const id of ['..', '.', '%2e%2E']) {
      assert.throws(() => expandUrl(parseTemplate('https://api.example/v1/{{id}}/x'), { id }, 8192), /would change the URL path/);
    }
    assert.equal(expandUrl(parseTemplate('https://api.example/v1?q={{q}}'), { q: '..' }, 8192).url.search, '?q=..');
  });

  test('over-long values are refused', () => {
    assert.throws(() => expandUrl(parseTemplate('https://a.example/{{id}}'), { id: 'a'.repeat(20) }, 10), /20 characters; the limit is 10/);
  });
});

describe('http handler check and summary', () => {
  test('a valid spec has no problems', () => {
    const spec: HttpHandlerSpec = { type: 'http', url: 'https://api.example/{{id}}', headers: { Authorization: 'Bearer ${env:TOKEN}' } };
    assert.deepEqual(check(spec), []);
  });

  test('an unknown placeholder in the url is a problem at handler.url, on the placeholder', () => {
    const problems = check({ type: 'http', url: 'https://api.example/{{nope}}' });
    assert.deepEqual(problems, [{ path: ['handler', 'url'], message: 'Placeholder {{nope}} names no property of inputSchema.', span: { start: 20, length: 8 } }]);
  });

  test('the scheme must be literal: a whole-url placeholder or another scheme is a problem', () => {
    for (const url of ['{{target}}', 'javascript:alert(1)', 'file:///etc/passwd', '{{target}}://x']) {
      const problems = check({ type: 'http', url });
      assert.ok(problems.some((p) => /must start with literal "http:\/\/" or "https:\/\/"/.test(p.message)), url);
    }
  });

  test('${env:NAME} is only for headers, and headers take no {{placeholders}}', () => {
    const inUrl = check({ type: 'http', url: 'https://a.example/?k=${env:KEY}' });
    assert.deepEqual(inUrl.map((p) => p.path), [['handler', 'url']]);
    const inHeader = check({ type: 'http', url: 'https://a.example/', headers: { 'X-Id': '{{id}}', 'X-Bad': '${env:1x}' } });
    assert.deepEqual(inHeader.map((p) => p.path), [['handler', 'headers', 'X-Id'], ['handler', 'headers', 'X-Bad']]);
  });

  test('summarize shows the method and url template', () => {
    assert.equal(compiled(httpHandler, { type: 'http', url: 'https://a.example/{{id}}' }, TARGET).summary, 'POST https://a.example/{{id}}');
    assert.equal(compiled(httpHandler, { type: 'http', url: 'https://a.example/', method: 'GET' }, TARGET).summary, 'GET https://a.example/');
  });
});
