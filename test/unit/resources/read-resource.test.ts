// Reading plugin resources from real files and real programs, and every way out refused:
// `..` and encoded separators in URIs and template values, symlinks leading outside, FIFOs,
// files and outputs over the cap, values that would become options, slow commands.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import { findResource, listResources, listTemplates, servedResources } from '../../../src/core/resources/resource-catalog';
import type { ResourceContents } from '../../../src/core/resources/read-resource';
import { readResource, ResourceInputError, ResourceReadError } from '../../../src/core/resources/read-resource';
import { DEFAULT_LIMITS } from '../../../src/core/types';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415478da63f8cf000003010100c9fe92ef0000000049454e44ae426082', 'hex');

let workspace: TempDir;
let outside: TempDir;
beforeEach(() => {
  workspace = makeTempDir('wt-res-');
  outside = makeTempDir('wt-res-outside-');
});
afterEach(() => {
  workspace.cleanup();
  outside.cleanup();
});

function served(resources: readonly object[]) {
  const folder = { name: 'ws', path: workspace.path };
  const loaded = loadPluginFile(`${workspace.path}/.vscode/tools/r.json`, JSON.stringify({ resources }), folder);
  assert.deepEqual(loaded.diagnostics, []);
  return servedResources([{ file: loaded.file, approved: true, loaded }]);
}

async function read(resources: readonly object[], uri: string, limits = DEFAULT_LIMITS): Promise<ResourceContents> {
  const found = findResource(served(resources), uri);
  assert.ok(found !== undefined, `no resource for ${uri}`);
  return readResource(found, { env: process.env, limits });
}

describe('reading plugin resources', () => {
  test('a text file is text, with the MIME type its extension says; a PNG is a base64 blob', async () => {
    workspace.write('docs/guide.md', '# Guide\n');
    mkdirSync(`${workspace.path}/img`);
    writeFileSync(`${workspace.path}/img/dot.png`, PNG);
    const resources = [
      { name: 'guide', file: 'docs/guide.md' },
      { name: 'dot', uri: 'img://dot', file: 'img/dot.png' },
    ];
    assert.deepEqual(await read(resources, 'workspace-tools://file/ws/docs/guide.md'), { uri: 'workspace-tools://file/ws/docs/guide.md', mimeType: 'text/markdown', text: '# Guide\n' });
    assert.deepEqual(await read(resources, 'img://dot'), { uri: 'img://dot', mimeType: 'image/png', blob: PNG.toString('base64') });
  });

  test('bytes that are not UTF-8 are a blob even when the type says text', async () => {
    writeFileSync(`${workspace.path}/latin1.txt`, Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    const contents = await read([{ name: 'l', uri: 'x://l', file: 'latin1.txt' }], 'x://l');
    assert.ok('blob' in contents);
    assert.equal(Buffer.from(contents.blob, 'base64').toString('latin1'), 'café');
  });

  test('a glob lists each matching file under its own URI and reads it; names outside the glob are unknown', async () => {
    workspace.write('docs/a.md', 'A');
    workspace.write('docs/deep/b.md', 'B');
    workspace.write('docs/c.txt', 'C');
    workspace.write('secret.md', 'S');
    const resources = served([{ name: 'docs', description: 'the docs', files: 'docs/**/*.md' }]);
    const listed = await listResources(resources, new AbortController().signal);
    assert.deepEqual(listed, [
      { uri: 'workspace-tools://file/ws/docs/a.md', name: 'docs/a.md', description: 'the docs', mimeType: 'text/markdown' },
      { uri: 'workspace-tools://file/ws/docs/deep/b.md', name: 'docs/deep/b.md', description: 'the docs', mimeType: 'text/markdown' },
    ]);
    const found = findResource(resources, 'workspace-tools://file/ws/docs/deep/b.md');
    assert.ok(found !== undefined);
    assert.equal(((await readResource(found, { env: {}, limits: DEFAULT_LIMITS })) as { text: string }).text, 'B');
    for (const uri of [
      'workspace-tools://file/ws/docs/c.txt',
      'workspace-tools://file/ws/secret.md',
      'workspace-tools://file/ws/docs/../secret.md',
      'workspace-tools://file/ws/docs/..%2Fsecret.md',
      'workspace-tools://file/ws/docs/%2E%2E/secret.md',
      'workspace-tools://file/other/docs/a.md',
    ]) {
      assert.equal(findResource(resources, uri), undefined, uri);
    }
  });

  test('a symlink that leads outside the folder is refused; one inside is read', async () => {
    outside.write('secret.txt', 'top secret');
    workspace.write('docs/real.md', 'real');
    symlinkSync(`${outside.path}/secret.txt`, `${workspace.path}/docs/leak.md`);
    symlinkSync(`${workspace.path}/docs/real.md`, `${workspace.path}/docs/alias.md`);
    const resources = [{ name: 'leak', uri: 'x://leak', file: 'docs/leak.md' }, { name: 'docs', files: 'docs/*.md' }];
    await assert.rejects(read(resources, 'x://leak'), (error: unknown) => error instanceof ResourceReadError && /outside the allowed directory/.test(error.message) && !error.message.includes('top secret'));
    await assert.rejects(read(resources, 'workspace-tools://file/ws/docs/leak.md'), ResourceReadError);
    assert.equal(((await read(resources, 'workspace-tools://file/ws/docs/alias.md')) as { text: string }).text, 'real');
  });

  test('a file over maxSize is refused, not cut; a FIFO is refused at once', async () => {
    workspace.write('big.txt', 'x'.repeat(2000));
    execFileSync('mkfifo', [`${workspace.path}/pipe.txt`]);
    const resources = [
      { name: 'big', uri: 'x://big', file: 'big.txt', maxSize: 1000 },
      { name: 'pipe', uri: 'x://pipe', file: 'pipe.txt' },
    ];
    await assert.rejects(read(resources, 'x://big'), /larger than 1000 bytes/);
    await assert.rejects(read(resources, 'x://pipe'), /not a regular file/);
  });

  test('a file template: the value fills the path; values that change its shape are refused', async () => {
    workspace.write('tickets/7.md', 'ticket seven');
    workspace.write('secret.md', 'S');
    const resources = [{ name: 'ticket', uriTemplate: 'tickets://{id}', file: 'tickets/{{id}}.md' }];
    assert.equal(((await read(resources, 'tickets://7')) as { text: string }).text, 'ticket seven');
    for (const uri of ['tickets://..%2Fsecret', 'tickets://..', 'tickets://a%5Cb', 'tickets://.']) {
      await assert.rejects(read(resources, uri), ResourceInputError, uri);
    }
    await assert.rejects(read(resources, 'tickets://8'), /File not found/);
  });

  test('an enum variable takes only its values', async () => {
    workspace.write('env/dev.json', '{"env":"dev"}');
    const resources = [{ name: 'env', uriTemplate: 'env://{name}', file: 'env/{{name}}.json', variables: { name: { enum: ['dev', 'prod'] } } }];
    assert.deepEqual(await read(resources, 'env://dev'), { uri: 'env://dev', mimeType: 'application/json', text: '{"env":"dev"}' });
    await assert.rejects(read(resources, 'env://test'), (error: unknown) => error instanceof ResourceInputError && /one of "dev", "prod"/.test(error.message));
    assert.deepEqual(listTemplates(served(resources)), [{ uriTemplate: 'env://{name}', name: 'env' }]);
  });

  test('a command: argv without a shell, the value one argument; a value starting with "-" is refused', async () => {
    const resources = [
      { name: 'echo', uriTemplate: 'echo://{word}', command: ['node', '-e', 'process.stdout.write(JSON.stringify(process.argv.slice(1)))', '{{word}}'] },
    ];
    assert.deepEqual(await read(resources, 'echo://a%20b%3B%20rm%20-rf%20%24HOME'), { uri: 'echo://a%20b%3B%20rm%20-rf%20%24HOME', mimeType: 'text/plain', text: '["a b; rm -rf $HOME"]' });
    await assert.rejects(read(resources, 'echo://--version'), (error: unknown) => error instanceof ResourceInputError && /start an argument with "-"/.test(error.message));
  });

  test('the bytes of a command are kept: an image type is a base64 blob, text that is not UTF-8 a blob, UTF-8 text text', async () => {
    const png = '89504e470d0a1a0a0000000d49484452';
    const resources = [
      { name: 'chart', uri: 'x://chart', mimeType: 'image/png', command: ['node', '-e', `process.stdout.write(Buffer.from('${png}', 'hex'))`] },
      { name: 'latin1', uri: 'x://latin1', command: ['node', '-e', 'process.stdout.write(Buffer.from([0x63, 0x61, 0x66, 0xe9]))'] },
      { name: 'words', uri: 'x://words', command: ['node', '-e', 'process.stdout.write("caf\\u00e9 ✓")'] },
    ];
    assert.deepEqual(await read(resources, 'x://chart'), { uri: 'x://chart', mimeType: 'image/png', blob: Buffer.from(png, 'hex').toString('base64') });
    assert.deepEqual(await read(resources, 'x://latin1'), { uri: 'x://latin1', mimeType: 'text/plain', blob: Buffer.from([0x63, 0x61, 0x66, 0xe9]).toString('base64') });
    assert.deepEqual(await read(resources, 'x://words'), { uri: 'x://words', mimeType: 'text/plain', text: 'café ✓' });
  });

  test('a command that runs too long is stopped; one that fails or prints too much serves nothing', async () => {
    const resources = [
      { name: 'slow', uri: 'x://slow', command: ['node', '-e', 'setTimeout(() => {}, 10000)'], timeout: 300 },
      { name: 'fail', uri: 'x://fail', command: ['node', '-e', 'process.stderr.write("boom"); process.exit(4)'] },
      { name: 'flood', uri: 'x://flood', command: ['node', '-e', 'process.stdout.write("y".repeat(5000))'], maxSize: 1000 },
      // Printing without end: stopped at the cap, not at the timeout.
      { name: 'endless', uri: 'x://endless', command: ['node', '-e', 'const line = "z".repeat(1000); for (;;) process.stdout.write(line)'], maxSize: 1000 },
    ];
    const started = Date.now();
    await assert.rejects(read(resources, 'x://slow'), /timed out after 300 ms/);
    assert.ok(Date.now() - started < 5000);
    await assert.rejects(read(resources, 'x://fail'), /exited with code 4: boom/);
    await assert.rejects(read(resources, 'x://flood'), /printed more than 1000 bytes/);
    const endless = Date.now();
    await assert.rejects(read(resources, 'x://endless'), /printed more than 1000 bytes/);
    assert.ok(Date.now() - endless < 10000, `stopped after ${Date.now() - endless} ms, not at the cap`);
  });

  test('only approved files serve, and the first file to define a URI owns it', () => {
    const folder = { name: 'ws', path: workspace.path };
    const first = loadPluginFile(`${workspace.path}/.vscode/tools/a.json`, JSON.stringify({ resources: [{ name: 'a', uri: 'x://same', file: 'a.txt' }] }), folder);
    const second = loadPluginFile(`${workspace.path}/.vscode/tools/b.json`, JSON.stringify({ resources: [{ name: 'b', uri: 'x://same', file: 'b.txt' }, { name: 'c', uri: 'x://c', file: 'c.txt' }] }), folder);
    const files = [
      { file: first.file, approved: true, loaded: first },
      { file: second.file, approved: true, loaded: second },
    ];
    assert.deepEqual(servedResources(files).map((resource) => resource.name), ['a', 'c']);
    assert.deepEqual(servedResources([{ ...files[0], approved: false }, files[1]] as typeof files).map((resource) => resource.name), ['c']);
  });
});
