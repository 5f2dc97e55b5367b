/**
 * A workspace of code tools for the stdio server tests: one real module per behaviour the issue
 * lists (each refusal, each failure), plus tools that work, call other tools and can be cancelled.
 */
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';

/** Modules by path, relative to the workspace folder. */
export const MODULES: Readonly<Record<string, string>> = {
  'tools/hello.ts': [
    'interface Input { name?: string }',
    'const hello: WorkspaceTools.CodeTool<Input> = async (input, context) => ({',
    '  text: `hello ${input.name ?? "world"}`,',
    '  structured: { name: input.name ?? null, folder: context.workspaceFolder },',
    '});',
    'export default hello;',
    '',
  ].join('\n'),
  'tools/read-passwd.mjs': "import { readFileSync } from 'node:fs';\nexport default () => readFileSync('/etc/passwd', 'utf8');\n",
  'tools/read-ssh.mjs': [
    "import { readFileSync } from 'node:fs';",
    "import { homedir } from 'node:os';",
    "export default () => readFileSync(homedir() + '/.ssh/id_rsa', 'utf8');",
    '',
  ].join('\n'),
  'tools/read-inside.mjs': "import { readFileSync } from 'node:fs';\nexport default (input, context) => readFileSync(context.workspaceFolder + '/data.txt', 'utf8');\n",
  'tools/write-file.mjs': "import { writeFileSync } from 'node:fs';\nexport default (input) => { writeFileSync(input.target, 'written'); return 'wrote ' + input.target; };\n",
  'tools/spawn.mjs': "import { execFileSync } from 'node:child_process';\nexport default () => execFileSync(process.execPath, ['-e', 'process.stdout.write(\"child ran\")'], { encoding: 'utf8' });\n",
  'tools/worker.mjs': "import { Worker } from 'node:worker_threads';\nexport default () => { new Worker('1', { eval: true }); return 'started'; };\n",
  'tools/addon.mjs': "import { createRequire } from 'node:module';\nexport default (input, context) => createRequire(context.workspaceFolder + '/')('./tools/fake.node');\n",
  'tools/fake.node': 'not really an addon\n',
  'tools/loop.mjs': 'export default () => {\n  for (;;) {}\n};\n',
  'tools/hog.mjs': 'export default () => {\n  const kept = [];\n  for (;;) kept.push(new Array(100000).fill(kept.length));\n};\n',
  'tools/throws.ts': 'export default async (): Promise<string> => {\n  const reason: string = "it broke";\n  throw new Error(reason);\n};\n',
  'tools/rejects.mjs': 'export default () => Promise.reject(new RangeError("no such range"));\n',
  'tools/returns-number.mjs': 'export default () => 42;\n',
  'tools/returns-map.mjs': 'export default () => ({ structured: { when: new Map() } });\n',
  'tools/syntax.mjs': 'export default async () => {\n  let x = (;\n};\n',
  'tools/enum.ts': 'enum Color { Red }\nexport default () => String(Color.Red);\n',
  'tools/caller.ts': [
    'const caller: WorkspaceTools.CodeTool = async (input, context) => {',
    '  const inner = await context.callTool("hello", { name: "from caller" });',
    '  const missing = await context.callTool("no-such-tool", {});',
    '  return `inner: ${inner.text} | missing: ${missing.isError}`;',
    '};',
    'export default caller;',
    '',
  ].join('\n'),
  'tools/sleeper.mjs': [
    "import { writeFileSync } from 'node:fs';",
    'export default async (input) => {',
    '  writeFileSync(input.pidfile, String(process.pid));',
    '  await new Promise((resolve) => setTimeout(resolve, 100_000));',
    '};',
    '',
  ].join('\n'),
};

const tool = (name: string, module: string, extra: Record<string, unknown> = {}, handler: Record<string, unknown> = {}): Record<string, unknown> => ({
  name,
  description: `code tool ${name}`,
  ...extra,
  handler: { type: 'code', module, ...handler },
});

/** The plugin file: one tool per module above (the enum one fails to load). */
export const PLUGIN_FILE = JSON.stringify(
  {
    name: 'code-tools',
    tools: [
      tool('hello', 'tools/hello.ts', { inputSchema: { type: 'object', properties: { name: { type: 'string' } } }, tags: ['read'] }),
      tool('read-passwd', 'tools/read-passwd.mjs'),
      tool('read-ssh', 'tools/read-ssh.mjs'),
      tool('read-inside', 'tools/read-inside.mjs'),
      tool('write-untagged', 'tools/write-file.mjs', { inputSchema: { type: 'object', properties: { target: { type: 'string' } } } }),
      tool('write-tagged', 'tools/write-file.mjs', { inputSchema: { type: 'object', properties: { target: { type: 'string' } } }, tags: ['write'] }),
      tool('spawn-untagged', 'tools/spawn.mjs'),
      tool('spawn-tagged', 'tools/spawn.mjs', { tags: ['execute'] }),
      tool('worker', 'tools/worker.mjs', { tags: ['execute'] }),
      tool('addon', 'tools/addon.mjs', { tags: ['execute'] }),
      tool('loop', 'tools/loop.mjs', {}, { timeout: 1500 }),
      tool('hog', 'tools/hog.mjs', {}, { maxHeapMb: 64, timeout: 20000 }),
      tool('throws', 'tools/throws.ts'),
      tool('rejects', 'tools/rejects.mjs'),
      tool('returns-number', 'tools/returns-number.mjs'),
      tool('returns-map', 'tools/returns-map.mjs'),
      tool('syntax', 'tools/syntax.mjs'),
      tool('enum', 'tools/enum.ts'),
      tool('caller', 'tools/caller.ts'),
      tool('sleeper', 'tools/sleeper.mjs', { inputSchema: { type: 'object', properties: { pidfile: { type: 'string' } }, required: ['pidfile'] }, tags: ['write'] }),
    ],
  },
  null,
  2,
);

/** A workspace with the modules, the plugin file and the types file a user copies beside modules. */
export function makeCodeWorkspace(typesFile: string): TempDir {
  const workspace = makeTempDir('wt-code-');
  for (const [file, text] of Object.entries(MODULES)) {
    workspace.write(file, text);
  }
  workspace.write('data.txt', 'inside the workspace\n');
  workspace.write('tools/workspace-tools.d.ts', typesFile);
  workspace.write('.vscode/tools/code.json', PLUGIN_FILE);
  return workspace;
}
