// Structured results over real stdio: the built-ins declare an outputSchema and return
// structuredContent valid against it, next to the text content.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAjv } from '../../../src/core/json-schema/ajv';
import type { TempGitRepo } from '../helpers/git-repo';
import { makeFixtureRepo } from '../helpers/git-repo';
import type { ConnectedServer } from '../helpers/mcp-client';
import { connectServer, resultText } from '../helpers/mcp-client';

let repo: TempGitRepo;
let server: ConnectedServer;

before(async () => {
  repo = makeFixtureRepo();
  server = await connectServer(['--workspace', repo.path, '--no-plugins']);
});

after(async () => {
  await server.close();
  repo.cleanup();
});

const CALLS: Record<string, Record<string, unknown>> = {
  'git-status': {},
  'git-log': { maxCount: 5 },
  'list-files': { glob: '*.ts' },
  'search-text': { query: 'hello', maxResults: 1 },
  'workspace-info': {},
};

describe('structured results of the built-ins', () => {
  test('each declares an outputSchema and returns structuredContent valid against it', async () => {
    const { tools } = await server.client.listTools();
    // A new built-in with an outputSchema and no CALLS entry would never be checked here.
    const declared = tools.filter((tool) => tool.outputSchema !== undefined).map((tool) => tool.name);
    assert.deepEqual(declared.filter((name) => CALLS[name] === undefined), [], 'a built-in with an outputSchema needs an entry in CALLS');
    const ajv = createAjv({ strict: false, allErrors: true });
    for (const [name, args] of Object.entries(CALLS)) {
      const tool = tools.find((one) => one.name === name);
      assert.ok(tool?.outputSchema !== undefined, `${name} has no outputSchema`);
      // The SDK client validates structuredContent against the listed outputSchema as well.
      const result = await server.client.callTool({ name, arguments: args });
      assert.equal(result.isError, false, resultText(result));
      assert.ok(resultText(result).length > 0, `${name} lost its text content`);
      const validate = ajv.compile(tool.outputSchema);
      assert.ok(validate(result.structuredContent), `${name}: ${JSON.stringify(validate.errors)}`);
    }
  });

  test('the data says what the text says', async () => {
    const status = (await server.client.callTool({ name: 'git-status', arguments: {} })).structuredContent as {
      branch: string;
      entries: { path: string; index: string; worktree: string }[];
    };
    assert.equal(status.branch, 'main');
    assert.deepEqual(
      status.entries.map((entry) => `${entry.index}${entry.worktree} ${entry.path}`).sort(),
      [' M src/app.ts', 'M  src/util.ts', '?? notes.txt'].sort(),
    );
    const log = (await server.client.callTool({ name: 'git-log', arguments: {} })).structuredContent as { commits: { subject: string }[] };
    assert.deepEqual(log.commits.map((commit) => commit.subject), ['Add feature module', 'Initial commit']);
    const search = (await server.client.callTool({ name: 'search-text', arguments: { query: 'hello', maxResults: 1 } })).structuredContent as {
      matches: { path: string; line: number; text: string }[];
      more: boolean;
    };
    assert.equal(search.matches.length, 1);
    assert.equal(search.more, true);
    assert.equal(search.matches[0]?.line, 1);
    const files = (await server.client.callTool({ name: 'list-files', arguments: { glob: 'src/*.ts' } })).structuredContent as { files: string[] };
    assert.deepEqual(files.files, ['src/app.ts', 'src/feature.ts', 'src/util.ts']);
  });
});

describe('plugin tools with "output": { "format": "json" }', () => {
  const node = (code: string): string[] => ['node', '-e', code];
  const plugin = JSON.stringify({
    tools: [
      {
        name: 'report',
        description: 'a JSON report',
        tags: ['read'],
        output: { format: 'json', schema: { type: 'object', properties: { passed: { type: 'integer' }, failed: { type: 'integer' } }, required: ['passed'] } },
        handler: { type: 'shell', command: node('console.log(JSON.stringify({ passed: 3, failed: 1 }))') },
      },
      { name: 'free-json', description: 'JSON, no schema', tags: ['read'], output: { format: 'json' }, handler: { type: 'shell', command: node('console.log(\'{"a":[1,2]}\')') } },
      { name: 'closed', description: 'JSON of a closed schema', tags: ['read'], output: { format: 'json', schema: { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false } }, handler: { type: 'shell', command: node('console.log(JSON.stringify({ n: 1 }))') } },
      { name: 'plain', description: 'text only', tags: ['read'], handler: { type: 'shell', command: node('console.log("just text")') } },
      { name: 'not-json', description: 'claims JSON', tags: ['read'], output: { format: 'json' }, handler: { type: 'shell', command: node('console.log("Traceback: oops")') } },
      { name: 'wrong-shape', description: 'JSON of the wrong shape', tags: ['read'], output: { format: 'json', schema: { type: 'object', required: ['passed'] } }, handler: { type: 'shell', command: node('console.log(JSON.stringify({ ok: true }))') } },
    ],
  });

  test('stdout becomes structuredContent; bad output is an error result that shows it', async () => {
    const workspace = makeFixtureRepo();
    workspace.write('.vscode/tools/json.json', plugin);
    const jsonServer = await connectServer(['--workspace', workspace.path, '--approve-existing', '--no-builtins']);
    try {
      const { tools } = await jsonServer.client.listTools();
      assert.deepEqual(tools.find((tool) => tool.name === 'report')?.outputSchema?.required, ['passed']);
      assert.equal(tools.find((tool) => tool.name === 'free-json')?.outputSchema, undefined);
      const report = await jsonServer.client.callTool({ name: 'report', arguments: {} });
      assert.deepEqual(report.structuredContent, { passed: 3, failed: 1, workspaceFolder: workspace.path }, 'the data names the folder it ran in');
      assert.match(resultText(report), /"passed":3/);
      const free = await jsonServer.client.callTool({ name: 'free-json', arguments: {} });
      assert.deepEqual(free.structuredContent, { a: [1, 2], workspaceFolder: workspace.path });
      // A closed output schema is advertised with the folder key, so a client that checks data against it (this SDK client does) accepts it.
      assert.deepEqual(Object.keys(tools.find((tool) => tool.name === 'closed')?.outputSchema?.properties ?? {}), ['n', 'workspaceFolder']);
      const closed = await jsonServer.client.callTool({ name: 'closed', arguments: {} });
      assert.deepEqual([closed.isError, closed.structuredContent], [false, { n: 1, workspaceFolder: workspace.path }]);
      // A text-only result gets no data (Claude Code and VS Code would show the model the data instead of the text); _meta names its folder.
      const plain = await jsonServer.client.callTool({ name: 'plain', arguments: {} });
      assert.deepEqual([plain.structuredContent, plain._meta, resultText(plain)], [undefined, { 'workspace-tools/folder': workspace.path }, 'just text\n']);
      const bad = await jsonServer.client.callTool({ name: 'not-json', arguments: {} });
      assert.equal(bad.isError, true);
      assert.match(resultText(bad), /The output of "not-json" is not JSON.*It began with:\nTraceback: oops/s);
      const wrong = await jsonServer.client.callTool({ name: 'wrong-shape', arguments: {} });
      assert.equal(wrong.isError, true);
      assert.match(resultText(wrong), /does not match its output schema:\n.*passed/s);
    } finally {
      await jsonServer.close();
      workspace.cleanup();
    }
  });
});
