/**
 * The benchmark's own fixtures, made fresh in a temp directory on every run so the numbers never
 * depend on the checkout: a git repository of 5,000 files with 100 modified, a 10 KB and a 1 MB
 * text file inside it, and a workspace with 100 plugin files of 10 tools each.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Sizes of the fixtures, named so the report can quote them. */
export const FIXTURE = {
  repoFiles: 5_000,
  modifiedFiles: 100,
  smallFileBytes: 10 * 1024,
  // Under the file reader's 1 MiB (1,048,576 bytes) cap, so the whole file is served.
  largeFileBytes: 1_000_000,
  pluginFiles: 100,
  toolsPerPlugin: 10,
};

/**
 * @typedef {object} Fixtures
 * @property {string} root       temp directory holding everything (removed by the caller)
 * @property {string} repo       the git repository (also the workspace for built-ins)
 * @property {string} smallFile  repo-relative path of the 10 KB file
 * @property {string} largeFile  repo-relative path of the 1 MB file
 * @property {string} pluginWorkspace  a folder whose .vscode/tools holds the plugin files
 * @property {string} pluginDirectory  that .vscode/tools directory
 */

/**
 * Creates every fixture under a new temp directory.
 * @returns {Fixtures}
 */
export function createFixtures() {
  const root = mkdtempSync(join(tmpdir(), 'wt-bench-'));
  const repo = join(root, 'repo');
  makeRepository(repo);
  const pluginWorkspace = join(root, 'plugins-ws');
  const pluginDirectory = join(pluginWorkspace, '.vscode', 'tools');
  makePluginFiles(pluginDirectory);
  makeStepsFile(pluginDirectory);
  return {
    root,
    repo,
    smallFile: 'bench-files/small-10k.txt',
    largeFile: 'bench-files/large-1m.txt',
    pluginWorkspace,
    pluginDirectory,
  };
}

/**
 * A 3-step tool of `true` commands and the one-step tool it is measured against (a steps tool
 * should cost its spawns and little more).
 */
function makeStepsFile(directory) {
  const run = (name) => ({ name, handler: { type: 'shell', command: ['true'] } });
  const tools = [
    { name: 'bench-one-true', description: 'runs true', tags: ['read'], handler: { type: 'shell', command: ['true'] } },
    { name: 'bench-three-true', description: 'runs true three times', tags: ['read'], steps: [run('a'), run('b'), run('c')] },
  ];
  writeFileSync(join(directory, 'zz-steps.json'), JSON.stringify({ tools }));
  // A trivial code tool and the shell tool it is measured against (issue: <= 1.2x `node -e 0`).
  writeFileSync(join(directory, '..', '..', 'bench-code.mjs'), 'export default async () => "ok";\n');
  const codeTools = [
    { name: 'bench-code', description: 'returns ok', tags: ['read'], handler: { type: 'code', module: 'bench-code.mjs' } },
    { name: 'bench-node-e0', description: 'node -e 0', tags: ['read'], handler: { type: 'shell', command: ['node', '-e', '0'] } },
  ];
  writeFileSync(join(directory, 'zz-code.json'), JSON.stringify({ tools: codeTools }));
}

/** `count` bytes of numbered text lines, exactly. */
export function textOfSize(count) {
  const lines = [];
  let size = 0;
  for (let i = 1; size < count; i++) {
    const line = `line ${String(i).padStart(6, '0')}: the quick brown fox jumps over the lazy dog, again and again.\n`;
    lines.push(line);
    size += line.length;
  }
  return lines.join('').slice(0, count - 1) + '\n';
}

/**
 * 5,000 files in 50 x 10 nested folders, one commit, then 100 files modified. Files are written
 * first and committed with a single `git add -A && git commit` (one git process per step, not
 * per file), with a local identity so the machine's git config does not matter.
 */
function makeRepository(repo) {
  const perLeaf = 10;
  const leaves = FIXTURE.repoFiles / perLeaf;
  const files = [];
  for (let leaf = 0; leaf < leaves; leaf++) {
    const dir = join(repo, 'src', `pkg${String(Math.floor(leaf / 10)).padStart(2, '0')}`, `mod${leaf % 10}`);
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < perLeaf; i++) {
      const file = join(dir, `file${i}.ts`);
      writeFileSync(file, `// file ${leaf}-${i}\nexport const value${i} = ${leaf * perLeaf + i};\n`);
      files.push(file);
    }
  }
  const texts = join(repo, 'bench-files');
  mkdirSync(texts);
  writeFileSync(join(texts, 'small-10k.txt'), textOfSize(FIXTURE.smallFileBytes));
  writeFileSync(join(texts, 'large-1m.txt'), textOfSize(FIXTURE.largeFileBytes));
  const git = (...args) => execFileSync('git', args, { cwd: repo, stdio: ['ignore', 'ignore', 'pipe'] });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Bench');
  git('config', 'user.email', 'bench@example.invalid');
  git('config', 'commit.gpgsign', 'false');
  git('add', '-A');
  git('commit', '-q', '-m', 'fixture');
  const step = Math.floor(files.length / FIXTURE.modifiedFiles);
  for (let i = 0; i < FIXTURE.modifiedFiles; i++) {
    writeFileSync(files[i * step], `// modified\nexport const changed = ${i};\n`);
  }
  // Refresh the index once, so the first measured `git status` is not the one that stats
  // every file against a stale index.
  git('status', '--porcelain');
}

/** 100 plugin files of 10 tools each, a mix of shell commands, scripts and file reads. */
function makePluginFiles(directory) {
  mkdirSync(directory, { recursive: true });
  for (let f = 0; f < FIXTURE.pluginFiles; f++) {
    const id = String(f).padStart(3, '0');
    const tools = [];
    for (let t = 0; t < FIXTURE.toolsPerPlugin; t++) {
      tools.push(pluginTool(`p${id}-t${t}`, t));
    }
    const text = `// Benchmark plugin file ${id} (comments allowed: JSON with comments)\n${JSON.stringify({ name: `bench-${id}`, version: '1.0.0', tools }, null, 2)}\n`;
    writeFileSync(join(directory, `bench-${id}.json`), text);
  }
}

function pluginTool(name, index) {
  const description = `Benchmark tool ${name}: finds a pattern in a directory of the workspace and reports the matching lines with their numbers.`;
  if (index % 5 === 4) {
    return { name, description, tags: ['read'], handler: { type: 'file-read', basePath: '.' } };
  }
  if (index % 5 === 3) {
    return {
      name,
      description,
      inputSchema: { type: 'object', properties: { count: { type: 'integer', minimum: 1, default: 10 } } },
      tags: ['read'],
      handler: { type: 'shell', script: 'ls -la | head -n "$INPUT_COUNT"', timeout: 5000 },
    };
  }
  return {
    name,
    description,
    inputSchema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', default: 'TODO', description: 'Text to look for.' },
        directory: { type: 'string', default: '.', description: 'Where to look, relative to the workspace.' },
        ignoreCase: { type: 'boolean', default: false },
      },
      required: ['pattern'],
    },
    tags: ['read'],
    handler: { type: 'shell', command: ['grep', '-rn', '{{pattern}}', '{{directory}}'], timeout: 10000 },
  };
}
