// Issue 33, attack 2 and item 7's URLs: `${env:NAME}` in tasks.json is read only when the task
// runs, into the child's argv or environment; what is shown (tools/list, list --json, approve,
// a dry run, the history, check) says `${env:NAME}`, never the value. Credentials in a URL of a
// command are shown as ***. Real server over stdio and the real command line, private HOME.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { resultText } from '../helpers/mcp-client';
import { PrivateHome } from './private-home';

/** Not a known token shape, so only "never resolved" keeps it out, not the redactor. */
const SECRET = 's3cr3t-value-of-the-api-token-0042';
const URL_PASSWORD = 'hunter2-url-password';

/** Writes what it got (argv after the file name, and $TOKEN_FOR_CHILD) to a file, prints only "recorded". */
const RECORD = `require('fs').writeFileSync(process.argv[2], JSON.stringify({ argv: process.argv.slice(3), env: process.env.TOKEN_FOR_CHILD ?? null }));
console.log('recorded');
`;

const TASKS = JSON.stringify({
  version: '2.0.0',
  tasks: [
    { label: 'shell api', type: 'shell', command: `node record.js shell.json 'Authorization: Bearer \${env:API_TOKEN}' https://deploy:${URL_PASSWORD}@example.com/hook` },
    { label: 'process api', type: 'process', command: 'node', args: ['record.js', 'process.json', 'Bearer ${env:API_TOKEN}'] },
    { label: 'env api', type: 'shell', command: 'node record.js env.json', options: { env: { TOKEN_FOR_CHILD: '${env:API_TOKEN}' } } },
    { label: 'cwd from env', type: 'shell', command: 'true', options: { cwd: '${env:API_TOKEN}' } },
  ],
}, null, 2);

let sandbox: PrivateHome;

beforeEach(() => {
  sandbox = new PrivateHome({ API_TOKEN: SECRET });
  sandbox.workspace.write('record.js', RECORD);
  sandbox.workspace.write('.vscode/tasks.json', TASKS);
  sandbox.workspace.write('.vscode/tools/declared.json', JSON.stringify({ name: 'declared', import: [{ from: 'tasks' }] }));
});

afterEach(() => sandbox.dispose());

function assertHidden(text: string, where: string): void {
  assert.ok(!text.includes(SECRET), `${where} shows the secret:\n${text}`);
  assert.ok(!text.includes(URL_PASSWORD), `${where} shows the URL's password:\n${text}`);
}

function recorded(file: string): { argv: string[]; env: string | null } {
  return JSON.parse(readFileSync(path.join(sandbox.workspace.path, file), 'utf8')) as { argv: string[]; env: string | null };
}

describe('secrets in tasks.json are never shown (issue 33, attack 2)', () => {
  test('approve, list, check and a dry run show ${env:API_TOKEN}; a cwd from the environment is not served, at its line', async () => {
    const review = await sandbox.cli(['approve', '--yes', '--no-builtins']);
    assert.equal(review.code, 0, review.stderr);
    assertHidden(review.stdout + review.stderr, 'approve');
    assert.match(review.stdout, /Authorization: Bearer '"\$\{API_TOKEN\}"'/);
    assert.match(review.stdout, /runs: node record\.js process\.json 'Bearer \$\{env:API_TOKEN\}'/);
    assert.match(review.stdout, /https:\/\/deploy:\*\*\*@example\.com\/hook/);
    const listed = await sandbox.cli(['list', '--json', '--no-builtins']);
    assert.equal(listed.code, 0, listed.stderr);
    assertHidden(listed.stdout, 'list --json');
    assert.match(listed.stdout, /\$\{env:API_TOKEN\}/);
    const table = await sandbox.cli(['approve', '--list', '--no-builtins']);
    assertHidden(table.stdout + table.stderr, 'approve --list');
    const checked = await sandbox.cli(['check']);
    assertHidden(checked.stdout + checked.stderr, 'check');
    assert.match(checked.stdout, /\.vscode\/tasks\.json:\d+:\d+: .*"cwd from env": not served: its working directory uses \$\{env:API_TOKEN\}/);
    for (const tool of ['task-shell-api', 'task-process-api', 'task-env-api']) {
      const dry = await sandbox.cli(['call', tool, '--dry-run', '--no-builtins']);
      assert.equal(dry.code, 0, dry.stderr);
      assertHidden(dry.stdout + dry.stderr, `${tool} --dry-run`);
    }
  });

  test('tools/list and the history hide it; the child gets it in its argv and environment', async () => {
    assert.equal((await sandbox.cli(['approve', '--yes', '--no-builtins'])).code, 0);
    const server = await sandbox.connect();
    try {
      const { tools } = await server.client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), ['task-env-api', 'task-process-api', 'task-shell-api']);
      assertHidden(JSON.stringify(tools), 'tools/list');
      for (const name of ['task-shell-api', 'task-process-api', 'task-env-api']) {
        const result = await server.client.callTool({ name, arguments: {} });
        assert.equal(result.isError, false, resultText(result));
        assertHidden(JSON.stringify(result), `the result of ${name}`);
      }
      assertHidden(server.stderr(), 'the server log');
    } finally {
      await server.close();
    }
    assert.deepEqual(recorded('shell.json'), { argv: [`Authorization: Bearer ${SECRET}`, `https://deploy:${URL_PASSWORD}@example.com/hook`], env: null });
    assert.deepEqual(recorded('process.json'), { argv: [`Bearer ${SECRET}`], env: null });
    assert.deepEqual(recorded('env.json'), { argv: [], env: SECRET });
    const history = await sandbox.cli(['history', '--json']);
    assert.equal(history.code, 0, history.stderr);
    const records = JSON.parse(history.stdout) as { tool: string; ran?: string }[];
    assert.equal(records.length, 3);
    assertHidden(history.stdout, 'history');
    assert.match(records.find((record) => record.tool === 'task-process-api')?.ran ?? '', /'Bearer \$\{env:API_TOKEN\}'/);
  });

  test('a URL\'s credentials in a plugin command or http URL are *** in approve, list, a dry run and the history; the program gets them', async () => {
    const url = `https://deploy:${URL_PASSWORD}@example.com/hook`;
    sandbox.workspace.write('.vscode/tools/urls.json', JSON.stringify({
      name: 'urls',
      tools: [
        // It records its argv in the workspace: in the OS sandbox that takes the tag `write`.
        { name: 'post-hook', description: 'Posts to the hook.', tags: ['execute', 'write'], handler: { type: 'shell', command: ['node', 'record.js', 'url.json', url] } },
        { name: 'get-hook', description: 'Reads the hook.', handler: { type: 'http', url, method: 'GET' } },
      ],
    }));
    const review = await sandbox.cli(['approve', '--yes', '--no-builtins']);
    assert.equal(review.code, 0, review.stderr);
    assertHidden(review.stdout, 'approve');
    assert.match(review.stdout, /runs: node record\.js url\.json https:\/\/deploy:\*\*\*@example\.com\/hook/);
    assert.match(review.stdout, /http: GET https:\/\/deploy:\*\*\*@example\.com\/hook/);
    assertHidden((await sandbox.cli(['list', '--json', '--no-builtins'])).stdout, 'list --json');
    assertHidden((await sandbox.cli(['call', 'post-hook', '--dry-run', '--no-builtins'])).stdout, 'a dry run');
    const ran = await sandbox.cli(['call', 'post-hook', '--no-builtins']);
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual(recorded('url.json').argv, [url]);
    const history = await sandbox.cli(['history', '--json']);
    assertHidden(history.stdout, 'history');
    assert.match(history.stdout, /https:\/\/deploy:\*\*\*@example\.com\/hook/);
  });
});
