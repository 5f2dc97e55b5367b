/**
 * A code tool's rich results and questions, through real sandbox processes: content parts pass
 * through checked, a bad part is an error that names it, and `elicit` reaches the door's `ask`
 * (or fails in the door's words when there is none).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { askThrough } from '../../../src/core/content/ask';
import { codeHandler } from '../../../src/core/handlers/code/handler';
import type { CodeHandlerSpec } from '../../../src/core/handlers/code/spec';
import { readPluginSources } from '../../../src/core/plugins/plugin-sources';
import type { AskUser, ElicitRequest, ToolResult, ToolRunContext } from '../../../src/core/types';
import { DEFAULT_LIMITS } from '../../../src/core/types';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { runAsRegistry } from '../helpers/handler-run';
import { RED_PIXEL_PNG } from '../helpers/media';


let workspace: TempDir;
before(() => {
  workspace = makeTempDir('wt-code-content-');
});
after(() => workspace.cleanup());

const folder = (): { name: string; path: string } => ({ name: 'ws', path: workspace.path });

async function run(module: string, text: string, options: { spec?: Partial<CodeHandlerSpec>; ask?: AskUser } = {}): Promise<ToolResult> {
  workspace.write(module, text);
  const spec: CodeHandlerSpec = { type: 'code', module, ...options.spec };
  const sources = await readPluginSources(JSON.stringify({ tools: [{ handler: spec }] }), folder());
  const quiet = (): void => undefined;
  const context: ToolRunContext = {
    folders: [folder()],
    signal: new AbortController().signal,
    limits: DEFAULT_LIMITS,
    logger: { trace: quiet, debug: quiet, info: quiet, warn: quiet, error: quiet },
    env: { PATH: process.env['PATH'] },
    // As the registry gives it: the door's ask behind the checks.
    ask: askThrough(options.ask),
  };
  return runAsRegistry(codeHandler, spec, { toolName: 'tool', inputSchema: { type: 'object', properties: {} }, folder: folder(), sources }, {}, context);
}

describe('code tools: content parts', () => {
  test('image, audio, embedded resource and link parts pass through; text describes them', async () => {
    const result = await run(
      'tools/parts.mjs',
      [
        'export default () => ({ content: [',
        '  { type: "text", text: "a red pixel:" },',
        `  { type: "image", data: "${RED_PIXEL_PNG}", mimeType: "image/png" },`,
        '  { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },',
        '  { type: "resource", resource: { uri: "test://r", mimeType: "application/json", text: "{\\"a\\":1}" } },',
        '  { type: "resource_link", uri: "file:///x.txt", name: "x.txt" },',
        '] });',
      ].join('\n'),
    );
    assert.equal(result.isError, false, result.text);
    assert.deepEqual(result.content?.map((part) => part.type), ['text', 'image', 'audio', 'resource', 'resource_link']);
    assert.deepEqual(result.content?.[1], { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' });
    assert.equal(result.text, 'a red pixel:\n[image/png, 70 bytes]\n[audio/wav, 4 bytes]\n[resource test://r, application/json]\n{"a":1}\n[link x.txt: file:///x.txt]');
    assert.doesNotMatch(result.text, /iVBOR/, 'no base64 in the text');
  });

  test('text given beside content is the text readers of text get; structured stays', async () => {
    const result = await run('tools/both.mjs', `export default () => ({ text: "a chart", structured: { points: 3 }, content: [{ type: "image", data: "${RED_PIXEL_PNG}", mimeType: "image/png" }] });\n`);
    assert.equal(result.text, 'a chart');
    assert.deepEqual(result.structured, { points: 3 });
    assert.equal(result.content?.length, 1);
  });

  test('a bad part is an error result that names the part and what is wrong', async () => {
    const cases: Array<[string, RegExp]> = [
      ['{ type: "image", data: "not base64!", mimeType: "image/png" }', /content\[0\]\.data is not base64/],
      ['{ type: "image", data: "UklGRg==" }', /content\[0\]\.mimeType must be a string \(it is missing\)/],
      ['{ type: "image", data: "UklGRg==", mimeType: "text/plain" }', /content\[0\]\.mimeType is "text\/plain", not a MIME type of an image/],
      ['{ type: "audio", data: "UklGRg==", mimeType: "image/png" }', /not a MIME type of audio/],
      ['{ type: "resource", resource: { uri: "x://y", text: "a", blob: "YQ==" } }', /content\[0\]\.resource must have exactly one of "text"/],
      ['{ type: "video", data: "" }', /content\[0\]\.type is "video": a part is one of/],
      ['{ type: "text", text: "a", extra: 1 }', /content\[0\] has "extra"/],
    ];
    for (const [index, [part, message]] of cases.entries()) {
      const result = await run(`tools/bad-${index}.mjs`, `export default () => ({ content: [${part}] });\n`);
      assert.equal(result.isError, true, part);
      assert.match(result.text, /returned something that is not a result/, part);
      assert.match(result.text, message, part);
    }
    const empty = await run('tools/empty.mjs', 'export default () => ({ content: [] });\n');
    assert.match(empty.text, /"content" is an array: it must be a non-empty array of content parts/);
  });

  test('parts over the output cap are an error, never a cut image', async () => {
    const data = Buffer.alloc(3000, 7).toString('base64');
    const result = await run('tools/big.mjs', `export default () => ({ content: [{ type: "image", data: "${data}", mimeType: "image/png" }] });\n`, { spec: { maxOutputBytes: 2048 } });
    assert.equal(result.isError, true);
    assert.match(result.text, /the result is 2\.9 KB \(content\[0\] image 2\.9 KB\), over the output cap of 2\.0 KB; content parts are never cut/);
    assert.equal(result.content, undefined);
  });
});

describe('code tools: elicit', () => {
  const form = '{ type: "object", properties: { name: { type: "string", default: "Ada" }, count: { type: "integer" } }, required: ["name"] }';
  const asker = 'export default async (input, context) => { const answer = await context.elicit("Who are you?", ' + form + '); return JSON.stringify(answer); };\n';

  test('the question reaches the door as sent, and the answer comes back to the module', async () => {
    const asked: ElicitRequest[] = [];
    const result = await run('tools/asker.mjs', asker, {
      ask: (request) => {
        asked.push(request);
        return Promise.resolve({ action: 'accept', content: { name: 'Grace', count: 2 } });
      },
    });
    assert.equal(result.isError, false, result.text);
    assert.deepEqual(JSON.parse(result.text), { action: 'accept', content: { name: 'Grace', count: 2 } });
    assert.deepEqual(asked, [{ message: 'Who are you?', requestedSchema: { type: 'object', properties: { name: { type: 'string', default: 'Ada' }, count: { type: 'integer' } }, required: ['name'] } }]);
  });

  test('a question still waiting when the tool\'s time runs out is given up with it', async () => {
    const signals: AbortSignal[] = [];
    // A user who never answers: the question waits until its signal says the call is over.
    const ask: AskUser = (_request, signal) => {
      signals.push(signal);
      return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('given up')), { once: true }));
    };
    const result = await run('tools/asker-waits.mjs', asker, { ask, spec: { timeout: 500 } });
    assert.equal(result.isError, true);
    assert.match(result.text, /500 ms/);
    assert.equal(signals.length, 1);
    // Before, it was the call's signal only: the question waited on (in a server, holding one of
    // the client's places for waiting calls) after the tool had been stopped.
    assert.equal(signals[0]?.aborted, true, 'the question was given up');
  });

  test('decline and cancel come back as the action, with no content', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const result = await run(`tools/asker-${action}.mjs`, asker, { ask: () => Promise.resolve({ action }) });
      assert.deepEqual(JSON.parse(result.text), { action });
    }
  });

  test('where the door cannot ask, elicit rejects with the reason, which the module can catch', async () => {
    const result = await run('tools/no-door.mjs', asker);
    assert.equal(result.isError, true);
    assert.match(result.text, /threw Error: this client cannot ask the user: /);
    const caught = await run('tools/catches.mjs', 'export default async (input, context) => { try { await context.elicit("Sure?"); return "asked"; } catch (error) { return "could not ask: " + error.message; } };\n');
    assert.match(caught.text, /^could not ask: this client cannot ask the user: /);
  });

  test('a form a client cannot show is refused before anything is sent, naming the field', async () => {
    let asked = 0;
    const ask: AskUser = () => {
      asked += 1;
      return Promise.resolve({ action: 'accept', content: {} });
    };
    const cases: Array<[string, RegExp]> = [
      ['{ type: "object", properties: { address: { type: "object", properties: {} } } }', /requestedSchema\.properties\.address\.type is "object": a form asks for a string, number, integer, boolean or array/],
      ['{ type: "object", properties: { tags: { type: "array", items: { type: "string" } } } }', /requestedSchema\.properties\.tags\.items must be/],
      ['{ type: "object", properties: { a: { type: "string" } }, required: ["b"] }', /requestedSchema\.required must list names of its properties/],
      ['{ type: "array" }', /requestedSchema\.type must be "object"/],
    ];
    for (const [index, [schema, message]] of cases.entries()) {
      const result = await run(`tools/bad-form-${index}.mjs`, `export default async (input, context) => JSON.stringify(await context.elicit("Q?", ${schema}));\n`, { ask });
      assert.equal(result.isError, true, schema);
      assert.match(result.text, message, schema);
    }
    assert.equal(asked, 0);
  });

  test('one question at a time: a second before the first is answered is refused', async () => {
    const module = 'export default async (input, context) => { const first = context.elicit("One?"); try { await context.elicit("Two?"); } catch (error) { await first; return error.message; } return "both"; };\n';
    const result = await run('tools/two.mjs', module, { ask: () => new Promise((resolve) => setTimeout(() => resolve({ action: 'decline' }), 50)) });
    assert.equal(result.text, 'elicit asks one question at a time: await the answer to the previous one first');
  });
});
