/**
 * A question's answer cannot replace a tool's input (issue 33, attack 6). The real server over
 * stdio, the official v2 client on both revisions (2025-11-25: `elicitation/create`; 2026-07-28:
 * `input_required`, retried with `inputResponses`), answering for the user: asked "Deploy to
 * staging?" with a form of one field, `note`, the answer also carries `environment` (outside the
 * input's enum, or inside it) and nothing runs; a form field outside its own enum, and an extra
 * field in a code tool's `elicit` answer, are refused the same way. Each refusal names the field;
 * a side-effect file that the tool writes first thing stays absent. A well-formed answer still runs.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { resultText } from '../helpers/mcp-client';
import { connectV2Client } from '../helpers/mcp-client-v2';

const node = process.execPath;
/** Writes `<marker>` with what it was given: its existence means the tool ran. */
const WRITE_MARKER = "require('fs').writeFileSync(process.argv[1], process.argv.slice(2).join(' '))";
const PLUGIN = {
  name: 'answers',
  tools: [
    {
      name: 'deploy',
      description: 'deploys after the user confirms',
      tags: ['write'],
      inputSchema: { type: 'object', properties: { environment: { type: 'string', enum: ['staging', 'production'] }, marker: { type: 'string' } }, required: ['environment', 'marker'], additionalProperties: false },
      confirm: { message: 'Deploy to {{environment}}?', schema: { type: 'object', properties: { note: { type: 'string', title: 'Note' } } } },
      handler: { type: 'shell', command: [node, '-e', WRITE_MARKER, '{{marker}}', '{{environment}}', '{{note}}'] },
    },
    {
      name: 'release',
      description: 'releases on the channel the user picks',
      tags: ['write'],
      inputSchema: { type: 'object', properties: { marker: { type: 'string' } }, required: ['marker'] },
      confirm: { message: 'Release?', schema: { type: 'object', properties: { channel: { type: 'string', enum: ['beta', 'stable'] } }, required: ['channel'] } },
      handler: { type: 'shell', command: [node, '-e', WRITE_MARKER, '{{marker}}', '{{channel}}'] },
    },
    {
      name: 'greet',
      description: 'asks for a name, then writes what it was answered',
      tags: ['write'],
      inputSchema: { type: 'object', properties: { marker: { type: 'string' } }, required: ['marker'] },
      handler: { type: 'code', module: 'tools/greet.mjs' },
    },
  ],
};

let workspace: TempDir;
let configHome: string;
before(() => {
  workspace = makeTempDir('wt-answers-');
  workspace.write('.vscode/tools/answers.json', JSON.stringify(PLUGIN, null, 2));
  workspace.write(
    'tools/greet.mjs',
    [
      "import { writeFileSync } from 'node:fs';",
      'export default async (input, context) => {',
      '  const answer = await context.elicit("Your name?", { type: "object", properties: { name: { type: "string" } }, required: ["name"] });',
      "  writeFileSync(context.workspaceFolder + '/' + input.marker, JSON.stringify(answer.content));",
      '  return `hello ${answer.content.name}`;',
      '};',
      '',
    ].join('\n'),
  );
  configHome = mkdtempSync(path.join(tmpdir(), 'wt-answers-config-'));
});
after(() => {
  workspace.cleanup();
  rmSync(configHome, { recursive: true, force: true });
});

type Answer = { action: 'accept'; content: Record<string, string> };

/** The v2 client on `revision`, answering each question with what `answers` gives for its message. */
async function connect(revision: '2025-11-25' | '2026-07-28', answers: (message: string) => Answer): Promise<Client> {
  const client = await connectV2Client({
    name: 'answers-tests',
    configHome,
    args: ['--workspace', workspace.path, '--approve-existing', '--no-history'],
    capabilities: { elicitation: { form: {} } },
    ...(revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    prepare: (prepared) => prepared.setRequestHandler('elicitation/create', (request) => Promise.resolve(answers(request.params.message))),
  });
  assert.equal(client.getNegotiatedProtocolVersion(), revision);
  return client;
}

const ran = (marker: string): boolean => existsSync(path.join(workspace.path, marker));

for (const revision of ['2025-11-25', '2026-07-28'] as const) {
  describe(`an answer sets only its form's fields, on ${revision}`, () => {
    test('asked "Deploy to staging?" with a form of one field, an answer that also sets "environment" runs nothing', async () => {
      let answer: Answer = { action: 'accept', content: { note: 'ok', environment: 'production; rm -rf ~' } };
      const client = await connect(revision, () => answer);
      try {
        const forged = await client.callTool({ name: 'deploy', arguments: { environment: 'staging', marker: `forged-${revision}` } });
        assert.equal(forged.isError, true);
        assert.match(resultText(forged), /the user's answer sets "environment", which the form does not ask for \(its fields: "note"\); an answer may set only the form's fields\. "deploy" asks the user before it runs .*so nothing ran/);
        assert.equal(ran(`forged-${revision}`), false, 'the tool ran with the forged answer');

        // A value inside the input's enum is refused too: the answer is not where input comes from.
        answer = { action: 'accept', content: { note: 'ok', environment: 'production' } };
        const swapped = await client.callTool({ name: 'deploy', arguments: { environment: 'staging', marker: `swapped-${revision}` } });
        assert.equal(swapped.isError, true);
        assert.match(resultText(swapped), /the user's answer sets "environment", which the form does not ask for/);
        assert.equal(ran(`swapped-${revision}`), false, 'the tool ran in production though the user was asked about staging');

        answer = { action: 'accept', content: { note: 'hotfix' } };
        const honest = await client.callTool({ name: 'deploy', arguments: { environment: 'staging', marker: `honest-${revision}` } });
        assert.equal(honest.isError, false, resultText(honest));
        assert.equal(readFileSync(path.join(workspace.path, `honest-${revision}`), 'utf8'), 'staging hotfix');
      } finally {
        await client.close();
      }
    });

    test('a form field answered outside its enum runs nothing, and the error names the field', async () => {
      const client = await connect(revision, () => ({ action: 'accept', content: { channel: 'nightly; touch pwned' } }));
      try {
        const result = await client.callTool({ name: 'release', arguments: { marker: `release-${revision}` } });
        assert.equal(result.isError, true);
        assert.match(resultText(result), /the user's answer does not fit the form: - "channel": must be one of \["beta","stable"\]/);
        assert.equal(ran(`release-${revision}`), false);
      } finally {
        await client.close();
      }
    });

    test("a code tool's elicit: an answer with a field the form does not ask for never reaches the module", async () => {
      const client = await connect(revision, () => ({ action: 'accept', content: { name: 'Ada', admin: 'true' } }));
      try {
        const result = await client.callTool({ name: 'greet', arguments: { marker: `greet-${revision}` } });
        assert.equal(result.isError, true);
        assert.match(resultText(result), /the user's answer sets "admin", which the form does not ask for \(its fields: "name"\)/);
        assert.equal(ran(`greet-${revision}`), false, 'the module got the answer with the extra field');
      } finally {
        await client.close();
      }
    });
  });
}
