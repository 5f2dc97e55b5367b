/**
 * Rich results and questions to the user through the real MCP server over real stdio: images
 * (file-reader, a shell tool's declared output, a code tool's parts) reach the SDK client as image
 * content, and a code tool's `elicit` and a tool's `confirm` reach the client's elicitation handler
 * in both revisions (2025-11-25: `elicitation/create`; 2026-07-28: `input_required`, retried with
 * `inputResponses`), with the official v1 and v2 clients; a call that asks twice runs once. A
 * client that did not declare the elicitation capability gets a result that says the user could
 * not be asked.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError } from '@modelcontextprotocol/client';
import type { Client as V2Client } from '@modelcontextprotocol/client';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { SERVER_PATH, testServerEnv } from '../helpers/mcp-client';
import { connectV2Client } from '../helpers/mcp-client-v2';
import { RED_PIXEL_PNG } from '../helpers/media';

const node = process.execPath;
const PLUGIN = {
  name: 'rich',
  tools: [
    {
      name: 'pixel',
      description: 'the red pixel, printed by a program',
      tags: ['read'],
      output: { format: 'image', mimeType: 'image/png' },
      handler: { type: 'shell', command: [node, '-e', "process.stdout.write(require('fs').readFileSync('pixel.png'))"] },
    },
    { name: 'chart', description: 'a code tool returning parts', handler: { type: 'code', module: 'tools/chart.mjs' } },
    {
      name: 'ask-name',
      description: 'asks the user for a name',
      inputSchema: { type: 'object', properties: { question: { type: 'string' } }, required: ['question'] },
      handler: { type: 'code', module: 'tools/ask-name.mjs' },
    },
    { name: 'ask-twice', description: 'asks two questions in one call', tags: ['write'], inputSchema: { type: 'object', properties: { marker: { type: 'string' } }, required: ['marker'] }, handler: { type: 'code', module: 'tools/ask-twice.mjs' } },
    {
      name: 'release',
      description: 'writes a release marker once the user confirms',
      // It writes into the workspace: in the OS sandbox that takes the tag `write`.
      tags: ['execute', 'write'],
      inputSchema: { type: 'object', properties: { version: { type: 'string' } }, required: ['version'] },
      confirm: { message: 'Release {{version}}?', schema: { type: 'object', properties: { channel: { type: 'string', enum: ['beta', 'stable'], default: 'beta' } }, required: ['channel'] } },
      handler: { type: 'shell', command: [node, '-e', "require('fs').writeFileSync('released-' + process.argv[1] + '-' + process.argv[2], '')", '{{version}}', '{{channel}}'] },
    },
  ],
};

let workspace: TempDir;
let configHome: string;
before(() => {
  workspace = makeTempDir('wt-rich-');
  writeFileSync(path.join(workspace.path, 'pixel.png'), Buffer.from(RED_PIXEL_PNG, 'base64'));
  workspace.write('tools/chart.mjs', `export default () => ({ text: 'a chart', content: [{ type: 'text', text: 'a chart:' }, { type: 'image', data: '${RED_PIXEL_PNG}', mimeType: 'image/png' }, { type: 'resource', resource: { uri: 'test://chart-data', mimeType: 'application/json', text: '[1,2,3]' } }] });\n`);
  workspace.write(
    'tools/ask-name.mjs',
    [
      'export default async (input, context) => {',
      '  const answer = await context.elicit(input.question, { type: "object", properties: { name: { type: "string", title: "Name" } }, required: ["name"] });',
      '  return answer.action === "accept" ? `hello ${answer.content.name}` : `no name (${answer.action})`;',
      '};',
      '',
    ].join('\n'),
  );
  workspace.write(
    'tools/ask-twice.mjs',
    [
      "import { appendFileSync, readFileSync } from 'node:fs';",
      'export default async (input, context) => {',
      '  // Counts its starts in a file: a retry of the call must not start it again.',
      "  appendFileSync(context.workspaceFolder + '/ask-twice-' + input.marker, 'x');",
      '  const form = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };',
      '  const first = await context.elicit("First name?", form);',
      '  const last = await context.elicit("Last name?", form);',
      "  const starts = readFileSync(context.workspaceFolder + '/ask-twice-' + input.marker, 'utf8').length;",
      '  return `${first.content.name} ${last.content.name}, started ${starts} time(s)`;',
      '};',
      '',
    ].join('\n'),
  );
  workspace.write('.vscode/tools/rich.json', JSON.stringify(PLUGIN, null, 2));
  configHome = mkdtempSync(path.join(tmpdir(), 'wt-rich-config-'));
});
after(() => {
  workspace.cleanup();
  rmSync(configHome, { recursive: true, force: true });
});

const SERVER_ARGS = ['--workspace', '', '--approve-existing', '--no-history'];
const serverArgs = (): string[] => SERVER_ARGS.map((arg) => (arg === '' ? workspace.path : arg));

/** A v1 SDK client; with `answer`, it declares elicitation and answers each question with it. */
async function connectV1(answer?: (request: ElicitRequest) => ElicitResult): Promise<{ client: Client; asked: ElicitRequest[] }> {
  const asked: ElicitRequest[] = [];
  const client = new Client({ name: 'rich-tests', version: '1.0.0' }, answer === undefined ? {} : { capabilities: { elicitation: { form: {} } } });
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request);
      return answer(request);
    });
  }
  await client.connect(new StdioClientTransport({ command: node, args: [SERVER_PATH, ...serverArgs()], env: testServerEnv(configHome), stderr: 'ignore' }));
  return { client, asked };
}

describe('rich results over MCP', () => {
  test('an image from file-reader, from a shell tool\'s declared output and from a code tool arrives as image content', async () => {
    const { client } = await connectV1();
    try {
      const read = await client.callTool({ name: 'file-reader', arguments: { path: 'pixel.png' } });
      assert.deepEqual(read.content, [
        { type: 'text', text: 'pixel.png (image/png, 70 bytes)' },
        { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
      ]);
      const printed = await client.callTool({ name: 'pixel', arguments: {} });
      assert.deepEqual(printed.content, [{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }]);
      assert.equal(printed.isError, false);
      const chart = await client.callTool({ name: 'chart', arguments: {} });
      assert.deepEqual(
        (chart.content as Array<{ type: string }>).map((part) => part.type),
        ['text', 'image', 'resource'],
      );
      assert.deepEqual((chart.content as unknown[])[2], { type: 'resource', resource: { uri: 'test://chart-data', mimeType: 'application/json', text: '[1,2,3]' } });
    } finally {
      await client.close();
    }
  });
});

describe('asking the user over MCP (2025-11-25, elicitation/create)', () => {
  test('a code tool\'s elicit reaches the client\'s handler; accept and decline come back to the module', async () => {
    const accepting = await connectV1(() => ({ action: 'accept', content: { name: 'Ada' } }));
    try {
      const result = await accepting.client.callTool({ name: 'ask-name', arguments: { question: 'Who is asking?' } });
      assert.deepEqual(result.content, [{ type: 'text', text: 'hello Ada' }]);
      assert.equal(accepting.asked.length, 1);
      const { mode, message, requestedSchema } = accepting.asked[0]?.params as { mode?: string; message: string; requestedSchema: unknown };
      assert.deepEqual({ mode, message, requestedSchema }, { mode: 'form', message: 'Who is asking?', requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] } });
    } finally {
      await accepting.client.close();
    }
    const declining = await connectV1(() => ({ action: 'decline' }));
    try {
      const result = await declining.client.callTool({ name: 'ask-name', arguments: { question: 'Who?' } });
      assert.deepEqual(result.content, [{ type: 'text', text: 'no name (decline)' }]);
    } finally {
      await declining.client.close();
    }
  });

  test('an answer that does not match the form is refused by the server, not handed to the tool', async () => {
    const { client } = await connectV1(() => ({ action: 'accept', content: { name: 42 } }));
    try {
      const result = await client.callTool({ name: 'ask-name', arguments: { question: 'Who?' } });
      assert.equal(result.isError, true);
      assert.match(JSON.stringify(result.content), /the user's answer does not fit the form: - \\"name\\": must be string/);
    } finally {
      await client.close();
    }
  });

  test('a client without the elicitation capability: elicit and confirm fail clearly, and nothing runs', async () => {
    const { client } = await connectV1();
    try {
      const asked = await client.callTool({ name: 'ask-name', arguments: { question: 'Who?' } });
      assert.equal(asked.isError, true);
      assert.match(JSON.stringify(asked.content), /this client cannot ask the user: the MCP client did not declare the elicitation capability when it connected/);
      const release = await client.callTool({ name: 'release', arguments: { version: '9.9' } });
      assert.equal(release.isError, true);
      assert.match(JSON.stringify(release.content), /this client cannot ask the user: .*so nothing ran/);
      assert.equal(existsSync(path.join(workspace.path, 'released-9.9-beta')), false);
    } finally {
      await client.close();
    }
  });

  test('confirm: accepted, the tool runs with the form\'s answer; declined, it does not', async () => {
    const accepting = await connectV1(() => ({ action: 'accept', content: { channel: 'stable' } }));
    try {
      const result = await accepting.client.callTool({ name: 'release', arguments: { version: '1.2' } });
      assert.equal(result.isError, false, JSON.stringify(result.content));
      assert.equal(accepting.asked[0]?.params.message, 'Release 1.2?');
      assert.equal(existsSync(path.join(workspace.path, 'released-1.2-stable')), true);
    } finally {
      await accepting.client.close();
    }
    const declining = await connectV1(() => ({ action: 'decline' }));
    try {
      const result = await declining.client.callTool({ name: 'release', arguments: { version: '1.3' } });
      assert.equal(result.isError, true);
      assert.match(JSON.stringify(result.content), /The user declined to run \\"release\\" \(asked: \\"Release 1\.3\?\\"\); nothing ran/);
      assert.equal(existsSync(path.join(workspace.path, 'released-1.3-beta')), false);
    } finally {
      await declining.client.close();
    }
  });

});

/** The official v2 client, on the revision given, answering each question with `answer`. */
async function connectV2(revision: '2025-11-25' | '2026-07-28', answer?: (message: string) => ElicitResult): Promise<{ client: V2Client; asked: string[] }> {
  const asked: string[] = [];
  const client = await connectV2Client({
    name: 'rich-tests-v2',
    configHome,
    args: serverArgs(),
    ...(answer === undefined ? {} : { capabilities: { elicitation: { form: {} } } }),
    ...(revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    prepare: (prepared) => {
      if (answer !== undefined) {
        prepared.setRequestHandler('elicitation/create', (request) => {
          asked.push(request.params.message);
          return Promise.resolve(answer(request.params.message) as { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string> });
        });
      }
    },
  });
  assert.equal(client.getNegotiatedProtocolVersion(), revision);
  return { client, asked };
}

for (const revision of ['2025-11-25', '2026-07-28'] as const) {
  describe(`asking the user with the official v2 client on ${revision}${revision === '2026-07-28' ? ' (input_required, retried with inputResponses)' : ''}`, () => {
    test('a code tool asks twice in one call: each answer reaches it, and the tool ran once', async () => {
      const answers = ['Grace', 'Hopper'];
      const { client, asked } = await connectV2(revision, () => ({ action: 'accept', content: { name: answers.shift() ?? '' } }));
      try {
        const result = await client.callTool({ name: 'ask-twice', arguments: { marker: revision } });
        assert.deepEqual(result.content, [{ type: 'text', text: 'Grace Hopper, started 1 time(s)' }]);
        assert.deepEqual(asked, ['First name?', 'Last name?']);
      } finally {
        await client.close();
      }
    });

    test('confirm: accepted it runs with the answer, declined it does not', async () => {
      const accepting = await connectV2(revision, () => ({ action: 'accept', content: { channel: 'stable' } }));
      try {
        const result = await accepting.client.callTool({ name: 'release', arguments: { version: `${revision}-a` } });
        assert.equal(result.isError, false, JSON.stringify(result.content));
        assert.deepEqual(accepting.asked, [`Release ${revision}-a?`]);
        assert.equal(existsSync(path.join(workspace.path, `released-${revision}-a-stable`)), true);
      } finally {
        await accepting.client.close();
      }
      const declining = await connectV2(revision, () => ({ action: 'decline' }));
      try {
        const result = await declining.client.callTool({ name: 'release', arguments: { version: `${revision}-b` } });
        assert.equal(result.isError, true);
        assert.match(JSON.stringify(result.content), /The user declined to run/);
        assert.equal(existsSync(path.join(workspace.path, `released-${revision}-b-beta`)), false);
      } finally {
        await declining.client.close();
      }
    });

    if (revision === '2026-07-28') {
      test('a retry with a made-up requestState resumes nothing: invalid params, and nothing runs', async () => {
        const { client } = await connectV2(revision, () => ({ action: 'accept', content: { channel: 'stable' } }));
        try {
          const forged = client.request({
            method: 'tools/call',
            params: { name: 'release', arguments: { version: 'forged' }, requestState: 'AAAAAAAAAAAAAAAAAAAAAA', inputResponses: { question: { action: 'accept', content: { channel: 'stable' } } } },
          });
          await assert.rejects(forged, (error: unknown) => error instanceof ProtocolError && error.code === -32602 && /No call of "release" waits for this answer/.test(error.message));
          assert.equal(existsSync(path.join(workspace.path, 'released-forged-stable')), false);
        } finally {
          await client.close();
        }
      });
    }

    test('a client without the capability: the tool is told, nothing is asked', async () => {
      const { client } = await connectV2(revision);
      try {
        const result = await client.callTool({ name: 'ask-name', arguments: { question: 'Who?' } });
        assert.equal(result.isError, true);
        assert.match(JSON.stringify(result.content), /this client cannot ask the user: the MCP client did not declare the elicitation capability/);
      } finally {
        await client.close();
      }
    });
  });
}
