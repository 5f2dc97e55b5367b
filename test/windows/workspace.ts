/**
 * The workspace the Windows smoke suite serves: made by node.exe itself under %TEMP% (so on C:,
 * the drive of C:\windows\win.ini), with plugin files in CRLF, a batch file, a program planted
 * in the working directory, code tools and a long-named directory for 8.3 short names.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** Where everything of one smoke run lives. */
export interface SmokeWorkspace {
  readonly root: string;
  readonly folder: string;
  readonly appData: string;
  readonly localAppData: string;
  /** A directory on PATH holding greet.cmd (found by PATHEXT). */
  readonly bin: string;
  readonly growFile: string;
  /** Node's installer's npm (npm.cmd, node.exe, node_modules\npm), on PATH after `bin`. */
  readonly npmDir: string;
}

/** The package.json script the imported npm-scripts tool `npm-show-args` runs: it prints its arguments. */
export const NPM_SCRIPT = { name: 'show-args', tool: 'npm-show-args', body: 'node argv.js' } as const;

/** The values that must reach a program as exactly one argument each, unchanged. */
export const INJECTION_VALUES = ['a&b', 'say "hi"', '%PATH%', '^&|<>()', 'trailing\\', 'back\\\\"slash', 'two words', '!bang!', 'x & echo INJECTED'];

/** What the literal batch tool passes, and so what its output must be. */
export const BATCH_LITERALS = ['a&b', '^&|<>()', 'two words', 'trailing\\', '!bang!', '(paren)'];

const crlf = (text: string): string => text.replace(/\n/g, '\r\n');

/** Writes the workspace; `npmDir` is the real npm laid out as Node's installer does (scripts/test-windows.mjs). */
export function makeWorkspace(npmDir: string): SmokeWorkspace {
  const root = mkdtempSync(path.join(tmpdir(), 'wt-smoke-'));
  const folder = path.join(root, 'workspace');
  const bin = path.join(root, 'bin');
  for (const dir of [folder, bin, path.join(folder, 'sub'), path.join(folder, 'docs'), path.join(folder, 'tools'), path.join(folder, 'LongDirectoryName'), path.join(root, 'outside-long-directory'), path.join(folder, '.vscode', 'tools')]) {
    mkdirSync(dir, { recursive: true });
  }
  writeFileSync(path.join(folder, 'inside.txt'), 'inside text\n');
  writeFileSync(path.join(folder, 'sub', 'deep.txt'), 'deep text\n');
  writeFileSync(path.join(folder, 'docs', 'guide.md'), '# guide\n');
  writeFileSync(path.join(folder, 'LongDirectoryName', 'note.txt'), 'short name text\n');
  writeFileSync(path.join(root, 'outside-long-directory', 'secret.txt'), 'SECRET\n');
  writeFileSync(path.join(root, 'secret.txt'), 'SECRET\n');
  writeFileSync(path.join(folder, 'argv.js'), 'process.stdout.write(JSON.stringify(process.argv.slice(2)));\n');
  writeFileSync(path.join(folder, 'tools', 'echo-args.cmd'), crlf('@node "%~dp0..\\argv.js" %*\n'));
  writeFileSync(path.join(bin, 'greet.cmd'), crlf('@echo greetings from greet.cmd %~1\n'));
  const growFile = path.join(folder, 'grow.txt');
  // The grandchild's stdio is not the tool's: only a kill of the whole tree stops it.
  writeFileSync(path.join(folder, 'tree.js'), [
    "const { spawn } = require('node:child_process');",
    `spawn(process.execPath, ['-e', ${JSON.stringify(`setInterval(() => require('node:fs').appendFileSync(${JSON.stringify(growFile)}, 'x'), 100)`)}], { stdio: 'ignore' });`,
    'setInterval(() => undefined, 1000);',
    '',
  ].join('\n'));
  writeFileSync(path.join(folder, 'tools', 'hello.ts'), "export default async (input: { name?: string }): Promise<string> => `hello ${input.name ?? 'world'} on ${process.platform}`;\n");
  writeFileSync(path.join(folder, 'tools', 'escape.ts'), "import { readFileSync } from 'node:fs';\nexport default async (): Promise<string> => readFileSync('C:\\\\windows\\\\win.ini', 'utf8');\n");
  plantProgram(folder);
  writePluginFiles(folder);
  return { root, folder, appData: path.join(root, 'AppData', 'Roaming'), localAppData: path.join(root, 'AppData', 'Local'), bin, growFile, npmDir };
}

/**
 * A real program in the working directory, as planted.exe and as git.exe: a tool naming
 * "planted", and the built-in git tools, must not run it.
 */
function plantProgram(folder: string): void {
  const system = path.join(process.env['SystemRoot'] ?? 'C:\\windows', 'system32');
  const source = ['hostname.exe', 'whoami.exe'].map((name) => path.join(system, name)).find((file) => existsSync(file));
  if (source !== undefined) {
    copyFileSync(source, path.join(folder, 'planted.exe'));
    copyFileSync(source, path.join(folder, 'git.exe'));
  }
}

const shell = (name: string, handler: Record<string, unknown>, properties: Record<string, unknown> = {}): Record<string, unknown> => ({
  name,
  description: `smoke: ${name}`,
  inputSchema: { type: 'object', properties },
  tags: ['read'],
  handler: { type: 'shell', timeout: 60_000, ...handler },
});

function writePluginFiles(folder: string): void {
  const value = { value: { type: 'string' } };
  const tools = [
    shell('argv-echo', { command: ['node', 'argv.js', '{{value}}'] }, value),
    shell('tree-timeout', { command: ['node', 'tree.js'], timeout: 6000 }),
    shell('batch-value', { command: ['tools\\echo-args.cmd', '{{value}}'] }, value),
    shell('batch-literal', { command: ['tools\\echo-args.cmd', ...BATCH_LITERALS] }),
    shell('greet', { command: ['greet', 'friend'] }),
    shell('planted', { command: ['planted'] }),
    shell('cmd-script', { script: 'echo [!INPUT_VALUE!]' }, value),
    { name: 'read-docs', description: 'smoke: file-read', handler: { type: 'file-read', basePath: 'docs' } },
    { name: 'code-hello', description: 'smoke: code', inputSchema: { type: 'object', properties: { name: { type: 'string' } } }, tags: ['read'], handler: { type: 'code', module: 'tools/hello.ts', timeout: 60_000 } },
    { name: 'code-escape', description: 'smoke: code out', tags: ['read'], handler: { type: 'code', module: 'tools/escape.ts', timeout: 60_000 } },
  ];
  const tools_dir = path.join(folder, '.vscode', 'tools');
  writeFileSync(path.join(tools_dir, 'smoke.json'), crlf(`${JSON.stringify({ name: 'smoke', tools }, null, 2)}\n`));
  // Line 4, column 7 (CRLF endings): the value of "handler" is not an object.
  writeFileSync(path.join(tools_dir, 'broken.json'), crlf('{\n  "tools": [\n    { "name": "broken", "description": "x",\n      "handler": 42 }\n  ]\n}\n'));
  // The workspace's package.json scripts, imported: on Windows npm is npm.cmd, which cannot take the args.
  writeFileSync(path.join(folder, 'package.json'), crlf(`${JSON.stringify({ name: 'smoke', version: '1.0.0', private: true, scripts: { [NPM_SCRIPT.name]: NPM_SCRIPT.body } }, null, 2)}\n`));
  writeFileSync(path.join(tools_dir, 'scripts.json'), crlf('{\n  "import": [{ "from": "npm-scripts" }]\n}\n'));
  writeFileSync(path.join(tools_dir, 'percent.json'), crlf(`${JSON.stringify({ tools: [shell('percent', { script: 'echo %INPUT_VALUE%' }, value)] }, null, 2)}\n`));
}
