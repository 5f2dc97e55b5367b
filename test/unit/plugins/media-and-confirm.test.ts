/**
 * Plugin files' image and audio outputs (`"output": { "format": "image", "mimeType": ... }`) and
 * `confirm`: loaded from real plugin text, run for real (programs, a local HTTP server), asked
 * through a door's `ask` as the registry gives it.
 */
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { askThrough } from '../../../src/core/content/ask';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import { InputValidator } from '../../../src/core/registry/input-validator';
import type { AskUser, ElicitRequest, SchemaCheck, ToolDefinition, ToolResult, ToolRunContext } from '../../../src/core/types';
import { DEFAULT_LIMITS } from '../../../src/core/types';
import { errorResultFor } from '../../../src/core/tool-errors';
import { memoryLogger } from '../helpers/fake-tools';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { RED_PIXEL_PNG, silentWav } from '../helpers/media';

let workspace: TempDir;
let server: http.Server;
let base = '';
before(async () => {
  workspace = makeTempDir('wt-media-');
  writeFileSync(path.join(workspace.path, 'pixel.png'), Buffer.from(RED_PIXEL_PNG, 'base64'));
  server = http.createServer((request, response) => {
    if (request.url === '/pixel') {
      response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from(RED_PIXEL_PNG, 'base64'));
    } else if (request.url === '/login') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html>please log in</html>');
    } else if (request.url === '/big') {
      response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(5000, 1));
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('no such image');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  workspace.cleanup();
  await new Promise((resolve) => server.close(resolve));
});

const folder = (): { name: string; path: string } => ({ name: 'ws', path: workspace.path });
const node = process.execPath;

function load(tools: unknown[]): { tools: readonly ToolDefinition[]; problems: string[] } {
  const loaded = loadPluginFile(path.join(workspace.path, '.vscode/tools/t.json'), JSON.stringify({ tools }, null, 2), folder());
  return { tools: loaded.tools, problems: loaded.diagnostics.map((problem) => `${problem.line}:${problem.column} ${problem.message}`) };
}

function only(tool: unknown): ToolDefinition {
  const { tools, problems } = load([tool]);
  assert.deepEqual(problems, []);
  const [definition] = tools;
  assert.ok(definition);
  return definition;
}

const validator = new InputValidator();
const checkInput: SchemaCheck = (schema, value, root) => validator.check(schema, value, root);

/** Runs as the registry does: the door's ask behind the checks (the registry's validator), a throw as the error result. */
async function run(definition: ToolDefinition, input: Record<string, unknown> = {}, ask?: AskUser): Promise<ToolResult> {
  const context: ToolRunContext = { folders: [folder()], signal: new AbortController().signal, limits: DEFAULT_LIMITS, logger: memoryLogger(), env: { PATH: process.env['PATH'] }, ask: askThrough(ask, 'cli', checkInput), checkInput };
  return definition.run(input, context).catch((error: unknown) => errorResultFor(definition.name, error));
}

describe('shell and http tools with image or audio output', () => {
  test('a program\'s stdout declared image/png is one image part, its bytes exact; text describes it', async () => {
    const tool = only({ name: 'pixel', description: 'd', output: { format: 'image', mimeType: 'image/png' }, handler: { type: 'shell', command: ['cat', 'pixel.png'] } });
    const result = await run(tool);
    assert.equal(result.isError, false, result.text);
    assert.deepEqual(result.content, [{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }]);
    assert.equal(result.text, '[image/png, 70 bytes]');
    assert.equal(result.details?.exitCode, 0);
  });

  test('audio works the same way; stderr comes after it as text', async () => {
    writeFileSync(path.join(workspace.path, 'tone.wav'), silentWav());
    const tool = only({ name: 'tone', description: 'd', output: { format: 'audio', mimeType: 'audio/wav' }, handler: { type: 'shell', command: [node, '-e', 'process.stderr.write("made it"); process.stdout.write(require("fs").readFileSync("tone.wav"))'] } });
    const result = await run(tool);
    assert.equal(result.content?.[0]?.type, 'audio');
    assert.equal(result.content?.[0]?.type === 'audio' ? Buffer.from(result.content[0].data, 'base64').equals(silentWav()) : false, true);
    assert.deepEqual(result.content?.[1], { type: 'text', text: 'stderr:\nmade it' });
  });

  test('over the cap, empty, or ended badly: an error result, never a cut image and never base64 in text', async () => {
    const big = only({ name: 'big', description: 'd', output: { format: 'image', mimeType: 'image/png' }, handler: { type: 'shell', command: [node, '-e', 'process.stdout.write(Buffer.alloc(5000))'], maxOutputBytes: 1024 } });
    const over = await run(big);
    assert.equal(over.isError, true);
    assert.match(over.text, /The command's stdout is over the cap of 1\.0 KB \(at least \d\.\d KB\); the tool declares image\/png output, which is never cut\. Raise the handler's "maxOutputBytes"/);
    assert.equal(over.content, undefined);
    const empty = await run(only({ name: 'empty', description: 'd', output: { format: 'image', mimeType: 'image/png' }, handler: { type: 'shell', command: [node, '-e', ''] } }));
    assert.match(empty.text, /The command's stdout was empty, but the tool declares image\/png output/);
    const failed = await run(only({ name: 'failed', description: 'd', output: { format: 'image', mimeType: 'image/png' }, handler: { type: 'shell', command: [node, '-e', 'process.stdout.write(require("fs").readFileSync("pixel.png")); process.exitCode = 2'] } }));
    assert.equal(failed.isError, true);
    assert.match(failed.text, /^The command failed with exit code 2 \(accepted: 0\)\.\n\n\[70 bytes of image\/png output\]$/);
  });

  test('an http tool\'s body declared image/png is an image; a body labelled otherwise, a 404 and an oversize body are errors', async () => {
    const tool = (name: string, route: string, extra: Record<string, unknown> = {}): ToolDefinition =>
      only({ name, description: 'd', output: { format: 'image', mimeType: 'image/png' }, handler: { type: 'http', method: 'GET', url: `${base}${route}`, ...extra } });
    const image = await run(tool('pixel', '/pixel'));
    assert.deepEqual(image.content, [{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }]);
    assert.equal(image.details?.httpStatus, 200);
    const login = await run(tool('login', '/login'));
    assert.equal(login.isError, true);
    assert.match(login.text, /the response is text\/html, not the image\/png the tool declares\.\n\n<html>please log in<\/html>/);
    const missing = await run(tool('missing', '/missing'));
    assert.match(missing.text, /^HTTP 404 Not Found\n\nno such image/);
    const big = await run(tool('big', '/big', { maxResponseBytes: 1024 }));
    assert.match(big.text, /The response body is over the cap of 1\.0 KB .*Raise the handler's "maxResponseBytes"/);
  });

  test('load problems name what is wrong and where', () => {
    const { problems } = load([
      { name: 'a', description: 'd', output: { format: 'image' }, handler: { type: 'shell', command: ['true'] } },
      { name: 'b', description: 'd', output: { format: 'image', mimeType: 'audio/wav' }, handler: { type: 'shell', command: ['true'] } },
      { name: 'c', description: 'd', output: { format: 'json', mimeType: 'image/png' }, handler: { type: 'shell', command: ['true'] } },
      { name: 'd', description: 'd', output: { format: 'image', mimeType: 'image/png' }, handler: { type: 'file-read', basePath: '.' } },
      { name: 'e', description: 'd', output: { format: 'audio', mimeType: 'text/plain' }, handler: { type: 'shell', command: ['true'] } },
    ]);
    assert.equal(problems.length, 5, problems.join('\n'));
    assert.match(problems[0] ?? '', /"format": "image" needs "mimeType" \(for example "image\/png"\)/);
    assert.match(problems[1] ?? '', /"audio\/wav" is not a MIME type of an image/);
    assert.match(problems[2] ?? '', /an output "mimeType" belongs to "format": "image" or "audio"/);
    assert.match(problems[3] ?? '', /"format": "image" is for shell and http tools/);
    assert.match(problems[4] ?? '', /mimeType/);
  });
});

describe('confirm: a question before each run', () => {
  const deploy = {
    name: 'deploy',
    description: 'd',
    inputSchema: { type: 'object', properties: { target: { type: 'string' } }, required: ['target'] },
    confirm: { message: 'Deploy to {{target}}?', schema: { type: 'object', properties: { note: { type: 'string', title: 'Why' } } } },
    handler: { type: 'shell', command: [node, '-e', 'require("fs").writeFileSync("ran-" + process.argv[1], process.argv[2] ?? "")', '{{target}}', '{{note}}'] },
  };

  test('accepted, the tool runs, with the form\'s answers as input values; the question has the input filled in', async () => {
    const asked: ElicitRequest[] = [];
    const result = await run(only(deploy), { target: 'staging' }, (request) => {
      asked.push(request);
      return Promise.resolve({ action: 'accept', content: { note: 'hotfix' } });
    });
    assert.equal(result.isError, false, result.text);
    assert.deepEqual(asked, [{ message: 'Deploy to staging?', requestedSchema: { type: 'object', properties: { note: { type: 'string', title: 'Why' } } } }]);
    assert.equal(existsSync(path.join(workspace.path, 'ran-staging')), true);
  });

  test('declined or dismissed, nothing runs and the result says so', async () => {
    for (const [action, wording] of [['decline', /The user declined to run "deploy" \(asked: "Deploy to prod-1\?"\); nothing ran/], ['cancel', /The user dismissed the question before "deploy" .*nothing ran/]] as const) {
      const result = await run(only(deploy), { target: 'prod-1' }, () => Promise.resolve({ action }));
      assert.equal(result.isError, true);
      assert.match(result.text, wording);
    }
    assert.equal(existsSync(path.join(workspace.path, 'ran-prod-1')), false);
  });

  test('an answer that sets a field the form does not declare (an input value) runs nothing, and says which', async () => {
    const result = await run(only(deploy), { target: 'staging' }, () => Promise.resolve({ action: 'accept', content: { note: 'ok', target: 'production; rm -rf ~' } }));
    assert.equal(result.isError, true);
    assert.match(result.text, /the user's answer sets "target", which the form does not ask for \(its fields: "note"\).*so nothing ran/);
    assert.equal(existsSync(path.join(workspace.path, 'ran-production; rm -rf ~')), false);
  });

  test('a form value outside the form\'s schema runs nothing; the input with the answer is checked again even where the question was not', async () => {
    const pick = { ...deploy, name: 'pick', confirm: { message: 'Sure?', schema: { type: 'object', properties: { size: { type: 'integer', minimum: 1, maximum: 3 } }, required: ['size'] } }, handler: { type: 'shell', command: [node, '-e', 'require("fs").writeFileSync("picked-" + process.argv[1], "")', '{{size}}'] } };
    const result = await run(only(pick), { target: 'x' }, () => Promise.resolve({ action: 'accept', content: { size: 9 } }));
    assert.equal(result.isError, true);
    assert.match(result.text, /the user's answer does not fit the form: - "size": must be <= 3/);
    // An ask with no check behind it (the second line of defence): the merged input is refused.
    const tool = only(pick);
    const context: ToolRunContext = { folders: [folder()], signal: new AbortController().signal, limits: DEFAULT_LIMITS, logger: memoryLogger(), env: { PATH: process.env['PATH'] }, ask: askThrough(() => Promise.resolve({ action: 'accept', content: { size: 9 } })), checkInput };
    const unchecked = await tool.run({ target: 'x' }, context).catch((error: unknown) => errorResultFor(tool.name, error));
    assert.match(unchecked.text, /the input with the user's answer does not fit the input schema of "pick", so nothing ran:\n- "size": must be <= 3/);
    assert.equal(existsSync(path.join(workspace.path, 'picked-9')), false);
  });

  test('without the registry\'s validator in the call, a confirm tool runs nothing (it cannot check the answer)', async () => {
    const tool = only(deploy);
    const context: ToolRunContext = { folders: [folder()], signal: new AbortController().signal, limits: DEFAULT_LIMITS, logger: memoryLogger(), env: { PATH: process.env['PATH'] }, ask: askThrough(() => Promise.resolve({ action: 'accept', content: { note: 'n' } })) };
    const result = await tool.run({ target: 'unchecked' }, context).catch((error: unknown) => errorResultFor(tool.name, error));
    assert.match(result.text, /"deploy" cannot check the user's answer against its input schema in this call, so nothing ran/);
    assert.equal(existsSync(path.join(workspace.path, 'ran-unchecked')), false);
  });

  test('where the client cannot ask, nothing runs', async () => {
    const result = await run(only(deploy), { target: 'prod-2' });
    assert.equal(result.isError, true);
    assert.match(result.text, /this client cannot ask the user: .*"deploy" asks the user before it runs \("confirm" in its plugin file\), so nothing ran/);
    assert.equal(existsSync(path.join(workspace.path, 'ran-prod-2')), false);
  });

  test('approval shows the question', () => {
    assert.ok(only(deploy).approvalLines?.includes('asks the user before each run: "Deploy to {{target}}?" (form fields: note)'));
  });

  test('load problems: the wrong tool type, an unknown placeholder, a form a client cannot show, a field named like an input', () => {
    const { problems } = load([
      { ...deploy, name: 'a', handler: { type: 'code', module: 'x.mjs' } },
      { ...deploy, name: 'b', confirm: { message: 'Deploy {{where}}?' } },
      { ...deploy, name: 'c', confirm: { message: 'Sure?', schema: { type: 'object', properties: { deep: { type: 'object' } } } } },
      { ...deploy, name: 'd', confirm: { message: 'Sure?', schema: { type: 'object', properties: { target: { type: 'string' } } } } },
      { name: 'e', description: 'd', confirm: { message: 'Sure?' }, steps: [{ name: 's', handler: { type: 'shell', command: ['true'] } }] },
    ]);
    const text = problems.join('\n');
    assert.match(text, /"confirm" belongs to a shell or http tool; a code tool cannot ask before it runs \(a code tool asks with context\.elicit\)/);
    assert.match(text, /Placeholder \{\{where\}\} names no property of inputSchema/);
    assert.match(text, /confirm\.schema\.properties\.deep\.type is "object": a form asks for a string/);
    assert.match(text, /"target" is already an input property; a confirm field needs a name of its own/);
    assert.match(text, /"confirm" belongs to a shell or http tool with a "handler"; a steps tool or an alias cannot ask/);
  });
});
