/**
 * `call` with a tool that asks the user: on a real terminal (a pseudo-terminal made by util-linux
 * `script`) each field is asked and the answer reaches the tool; without a terminal the call says
 * the user could not be asked. `call --json` carries content parts whole.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/cli';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { SERVER_PATH, testServerEnv } from '../helpers/mcp-client';
import { RED_PIXEL_PNG } from '../helpers/media';
import { posixQuote } from '../../../src/core/sandbox/sandboxed-command';

let workspace: TempDir;
let config: TempDir;
before(() => {
  workspace = makeTempDir('wt-cli-ask-');
  config = makeTempDir('wt-cli-ask-config-');
  workspace.write(
    'tools/ask.mjs',
    "export default async (input, context) => JSON.stringify(await context.elicit('Who are you?', { type: 'object', properties: { name: { type: 'string', default: 'Ada' }, age: { type: 'integer' }, colors: { type: 'array', items: { type: 'string', enum: ['red', 'blue'] } } }, required: ['age'] }));\n",
  );
  writeFileSync(path.join(workspace.path, 'pixel.png'), Buffer.from(RED_PIXEL_PNG, 'base64'));
  workspace.write('.vscode/tools/t.json', JSON.stringify({ tools: [{ name: 'ask', description: 'asks', handler: { type: 'code', module: 'tools/ask.mjs' } }] }));
});
after(() => {
  workspace.cleanup();
  config.cleanup();
});

const ARGS = (): string[] => ['--workspace', workspace.path, '--approve-existing', '--no-history'];

/**
 * Runs `call` on a pseudo-terminal and answers each prompt as it appears (`answers`: the text a
 * prompt ends with, and what to type); resolves with everything the terminal showed.
 */
function onTerminal(args: readonly string[], answers: ReadonlyArray<readonly [string, string]>): Promise<{ shown: string; code: number | null }> {
  const command = [process.execPath, SERVER_PATH, ...args].map(posixQuote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { env: testServerEnv(config.path), stdio: ['pipe', 'pipe', 'pipe'] });
    let shown = '';
    let next = 0;
    // Where the terminal's output stood when the last answer was typed: a prompt counts only after it.
    let mark = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      shown += chunk.toString('utf8');
      const answer = answers[next];
      if (answer !== undefined && shown.includes(answer[0], mark)) {
        next += 1;
        mark = shown.length;
        child.stdin.write(`${answer[1]}\n`);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ shown, code }));
    setTimeout(() => child.kill(), 20_000).unref();
  });
}

describe('call asks on the terminal', () => {
  test('each field is asked in turn, a wrong answer again, and the answers reach the tool', async () => {
    const { shown, code } = await onTerminal(['call', 'ask', ...ARGS()], [
      ['[Ada]: ', ''],
      ['age: ', 'x'],
      ['age: ', '42'],
      ['(optional): ', 'red, blue'],
      ['Accept? [y/N] ', 'y'],
    ]);
    assert.equal(code, 0, shown);
    assert.match(shown, /Who are you\?/);
    assert.match(shown, /a whole number, please/);
    assert.match(shown, /\{"action":"accept","content":\{"name":"Ada","age":42,"colors":\["red","blue"\]\}\}/);
  });

  test('anything but yes at the end declines', async () => {
    const { shown } = await onTerminal(['call', 'ask', ...ARGS()], [
      ['[Ada]: ', 'Bob'],
      ['age: ', '7'],
      ['(optional): ', ''],
      ['Accept? [y/N] ', 'n'],
    ]);
    assert.match(shown, /\{"action":"decline"\}/);
  });

  test('without a terminal the tool is told the user cannot be asked', async () => {
    const run = await runCli(['call', 'ask', ...ARGS()], { configHome: config.path });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /this client cannot ask the user: `call` asks on a terminal, and its standard input or standard error is not one/);
  });
});

describe('call prints media as a description, and --json carries it whole', () => {
  test('text output names the image; --json has the part with its base64', async () => {
    const text = await runCli(['call', 'file-reader', '{"path":"pixel.png"}', ...ARGS()], { configHome: config.path });
    assert.equal(text.code, 0, text.stderr);
    assert.equal(text.stdout, 'pixel.png (image/png, 70 bytes)\n[image/png, 70 bytes]\n');
    const json = await runCli(['call', 'file-reader', '{"path":"pixel.png"}', '--json', ...ARGS()], { configHome: config.path });
    assert.deepEqual(JSON.parse(json.stdout), {
      isError: false,
      text: 'pixel.png (image/png, 70 bytes)\n[image/png, 70 bytes]',
      content: [
        { type: 'text', text: 'pixel.png (image/png, 70 bytes)' },
        { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
      ],
      folder: workspace.path,
    });
  });
});
