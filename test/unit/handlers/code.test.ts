/**
 * The code handler on its own: what loading checks (module place, extension, type stripping,
 * env), what approval shows and hashes, and what a call gives back (real sandbox processes).
 * The refusals of the sandbox are tested through the stdio server (test/unit/mcp/code-tools).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { codeHandler } from '../../../src/core/handlers/code/handler';
import type { CodeHandlerSpec } from '../../../src/core/handlers/code/spec';
import type { HandlerTarget } from '../../../src/core/handlers/handler';
import { contentHashOf, loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import { readPluginSources } from '../../../src/core/plugins/plugin-sources';
import type { ToolInput, ToolResult, ToolRunContext, ToolTag } from '../../../src/core/types';
import { DEFAULT_LIMITS } from '../../../src/core/types';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { problemsOf, runAsRegistry } from '../helpers/handler-run';

let workspace: TempDir;
before(() => {
  workspace = makeTempDir('wt-code-handler-');
});
after(() => workspace.cleanup());

const folder = (): { name: string; path: string } => ({ name: 'ws', path: workspace.path });

/** The target a plugin file gives a code tool whose module is `module` (read now). */
async function targetFor(spec: Omit<CodeHandlerSpec, 'type'>, tags?: readonly ToolTag[]): Promise<HandlerTarget> {
  const sources = await readPluginSources(JSON.stringify({ tools: [{ handler: { type: 'code', ...spec } }] }), folder());
  return { toolName: 'tool', inputSchema: { type: 'object', properties: {} }, folder: folder(), sources, ...(tags === undefined ? {} : { tags }) };
}

interface Captured {
  readonly logs: string[];
  readonly progress: string[];
}

function contextFor(captured: Captured, extra: Partial<ToolRunContext> = {}): ToolRunContext {
  const quiet = (): void => undefined;
  return {
    folders: [folder()],
    signal: new AbortController().signal,
    limits: DEFAULT_LIMITS,
    logger: { trace: quiet, debug: quiet, info: (message) => captured.logs.push(message), warn: quiet, error: quiet },
    env: { PATH: process.env['PATH'], HOST_SECRET: 'host-secret', HOME: '/home/someone' },
    progress: (message) => captured.progress.push(message),
    ...extra,
  };
}

/** Writes `text` as `module` and runs it once. */
async function runModule(module: string, text: string, options: { input?: ToolInput; spec?: Partial<CodeHandlerSpec>; context?: Partial<ToolRunContext>; tags?: ToolTag[] } = {}): Promise<ToolResult & Captured> {
  workspace.write(module, text);
  const spec: CodeHandlerSpec = { type: 'code', module, ...options.spec };
  const captured: Captured = { logs: [], progress: [] };
  const result = await runAsRegistry(codeHandler, spec, await targetFor(spec, options.tags), options.input ?? {}, contextFor(captured, options.context));
  return { ...result, ...captured };
}

describe('code handler: loading', () => {
  test('the module must be a .ts, .mts, .js or .mjs file inside the workspace folder', async () => {
    workspace.write('tools/a.cjs', 'module.exports = () => "x";\n');
    const cases: Array<[string, RegExp]> = [
      ['tools/a.cjs', /"module" must end in \.ts, \.mts, \.js, \.mjs/],
      ['../elsewhere.ts', /cannot be used: Path "\.\.\/elsewhere\.ts" is outside the workspace folder/],
      ['/etc/passwd.js', /must be a path relative to the workspace folder/],
      ['tools/missing.ts', /cannot be used: File not found: tools\/missing\.ts/],
    ];
    for (const [module, message] of cases) {
      const spec: CodeHandlerSpec = { type: 'code', module };
      const problems = problemsOf(codeHandler, spec, await targetFor(spec));
      assert.deepEqual(problems.map((problem) => problem.path), [['handler', 'module']], module);
      assert.match(problems[0]?.message ?? '', message);
    }
  });

  test('a type-stripping or TypeScript syntax error is a load error at the module\'s file:line:col', async () => {
    workspace.write('tools/param.ts', 'export class A {\n  constructor(private x: number) {}\n}\nexport default () => "a";\n');
    workspace.write('tools/broken.ts', 'const a = 1;\nlet b: = 2;\nexport default () => "b";\n');
    const message = async (module: string): Promise<string> => {
      const spec: CodeHandlerSpec = { type: 'code', module };
      return problemsOf(codeHandler, spec, await targetFor(spec))[0]?.message ?? '';
    };
    assert.match(await message('tools/param.ts'), /^tools\/param\.ts:2:23: TypeScript parameter property is not supported in strip-only mode/);
    assert.match(await message('tools/broken.ts'), /^tools\/broken\.ts:2:8: Unexpected token `=`/);
  });

  test('env may not set NODE_* or ELECTRON_* variables, nor use {{placeholders}}', async () => {
    workspace.write('tools/ok.mjs', 'export default () => "ok";\n');
    const spec: CodeHandlerSpec = { type: 'code', module: 'tools/ok.mjs', env: { NODE_OPTIONS: '--allow-fs-read=*', TOKEN: '{{token}}', GOOD: '${env:HOME}' } };
    const problems = problemsOf(codeHandler, spec, await targetFor(spec));
    assert.deepEqual(problems.map((problem) => problem.path), [['handler', 'env', 'NODE_OPTIONS'], ['handler', 'env', 'TOKEN']]);
  });

  test('the plugin file\'s hash covers its modules: changing a module changes it; no module, no change', async () => {
    workspace.write('tools/hashed.mjs', 'export default () => "one";\n');
    const text = JSON.stringify({ tools: [{ name: 'hashed', description: 'd', handler: { type: 'code', module: 'tools/hashed.mjs' } }] });
    const file = `${workspace.path}/.vscode/tools/hashed.json`;
    const first = loadPluginFile(file, text, folder(), await readPluginSources(text, folder()));
    assert.deepEqual(first.diagnostics, []);
    assert.notEqual(first.contentHash, contentHashOf(Buffer.from(text)));
    workspace.write('tools/hashed.mjs', 'export default () => "two";\n');
    const second = loadPluginFile(file, text, folder(), await readPluginSources(text, folder()));
    assert.notEqual(second.contentHash, first.contentHash);
    const plain = JSON.stringify({ tools: [{ name: 'plain', description: 'd', handler: { type: 'shell', command: ['true'] } }] });
    assert.equal(loadPluginFile(file, plain, folder(), await readPluginSources(plain, folder())).contentHash, contentHashOf(Buffer.from(plain)));
  });

  test('approval shows the module, its lines and the sandbox; tags default to read, plus network Node cannot deny', async () => {
    workspace.write('tools/shown.ts', 'export default (): string => "shown";\n');
    const text = JSON.stringify({ tools: [{ name: 'shown', description: 'd', tags: ['write'], handler: { type: 'code', module: 'tools/shown.ts', maxHeapMb: 128 } }, { name: 'plain', description: 'd', handler: { type: 'code', module: 'tools/shown.ts' } }] });
    const loaded = loadPluginFile(`${workspace.path}/.vscode/tools/shown.json`, text, folder(), await readPluginSources(text, folder()));
    const [shown, plain] = loaded.tools;
    assert.match(shown?.approvalLines?.[0] ?? '', /^module: tools\/shown\.ts \(1 lines, sha256 [0-9a-f]{16}…\)$/);
    assert.equal(shown?.approvalLines?.[1], '| export default (): string => "shown";');
    assert.equal(shown?.approvalLines?.[2], 'limits: heap 128 MB, resident memory 384 MB, timeout the default');
    // Its sandbox is said where every tool's is (the approval text's "sandbox:" line, list, the tools view).
    assert.equal(shown?.sandbox?.kind, 'own');
    assert.match(
      shown?.sandbox?.kind === 'own' ? (shown.sandbox.says[0] ?? '') : '',
      /^Node's permission model \(a code tool; not the OS sandbox\): reads the workspace folder only; writes inside the workspace folder; processes denied; no workers, native addons or signals to any process; network not restricted/,
    );
    assert.deepEqual(shown?.tags, ['write', 'network']);
    assert.deepEqual(plain?.tags, ['read', 'network']);
    assert.equal(plain?.handlerSummary, 'code: tools/shown.ts');
  });
});

describe('code handler: a call', () => {
  test('a string, { text, structured } or { structured } alone; input and workspaceFolder reach the function', async () => {
    const text = await runModule('tools/text.mjs', 'export default (input, context) => `${input.n * 2} in ${context.workspaceFolder}`;\n', { input: { n: 21 } });
    assert.equal(text.text, `42 in ${workspace.path}`);
    const both = await runModule('tools/both.mjs', 'export default () => ({ text: "summary", structured: { count: 2, items: ["a", null] } });\n');
    assert.deepEqual([both.text, both.structured], ['summary', { count: 2, items: ['a', null] }]);
    const structured = await runModule('tools/structured.mjs', 'export default async () => ({ structured: { ok: true } });\n');
    assert.equal(structured.text, '{\n  "ok": true\n}');
    const list = await runModule('tools/list.mjs', 'export default async () => ({ structured: [1, 2] });\n');
    assert.deepEqual([list.text, list.structured], ['[\n  1,\n  2\n]', undefined], 'structured content is an object; a list is text only');
  });

  test('the environment is an allowlist plus what env names; host secrets stay out', async () => {
    const result = await runModule('tools/env.mjs', 'export default () => JSON.stringify(process.env);\n', { spec: { env: { TOKEN: 'is-${env:HOST_SECRET}' } } });
    const env = JSON.parse(result.text) as Record<string, string>;
    assert.equal(env['HOST_SECRET'], undefined);
    assert.equal(env['TOKEN'], 'is-host-secret');
    assert.equal(env['HOME'], '/home/someone');
    assert.deepEqual(Object.keys(env).sort(), ['ELECTRON_RUN_AS_NODE', 'HOME', 'PATH', 'TOKEN']);
  });

  test('progress and log reach the door and the log; the signal is an AbortSignal not yet aborted', async () => {
    const result = await runModule('tools/talk.mjs', 'export default (input, context) => { context.progress("halfway"); context.log("a log line"); return String(context.signal.aborted); };\n');
    assert.equal(result.text, 'false');
    assert.deepEqual(result.progress, ['halfway']);
    assert.ok(result.logs.some((line) => line === '[code] tool: a log line'), result.logs.join('\n'));
  });

  test('callTool goes through the context\'s callTool and its answer comes back', async () => {
    const calls: Array<[string, unknown]> = [];
    const callTool = (name: string, input: unknown): Promise<ToolResult> => {
      calls.push([name, input]);
      return Promise.resolve({ text: `ran ${name}`, isError: false });
    };
    const result = await runModule('tools/calls.mjs', 'export default async (input, context) => (await context.callTool("other", { a: 1 })).text;\n', { context: { callTool } });
    assert.equal(result.text, 'ran other');
    assert.deepEqual(calls, [['other', { a: 1 }]]);
  });

  test('a nested call still running when the tool\'s time runs out is stopped with it', async () => {
    const signals: Array<AbortSignal | undefined> = [];
    // A called tool that runs until it is told to stop (before, nothing told it: it ran on to its own limit).
    const callTool = (_name: string, _input: unknown, signal?: AbortSignal): Promise<ToolResult> => {
      signals.push(signal);
      return new Promise((resolve) => signal?.addEventListener('abort', () => resolve({ text: 'stopped', isError: true }), { once: true }));
    };
    const started = Date.now();
    const result = await runModule('tools/waits-on-a-call.mjs', 'export default async (input, context) => (await context.callTool("slow", {})).text;\n', { spec: { timeout: 500 }, context: { callTool } });
    assert.equal(result.isError, true);
    assert.match(result.text, /500 ms/);
    assert.ok(Date.now() - started < 10_000);
    assert.equal(signals.length, 1);
    assert.equal(signals[0]?.aborted, true, 'the nested call was told to stop');
  });

  test('the result text is cut at maxOutputBytes with a note; what the module printed comes with an error', async () => {
    const long = await runModule('tools/long.mjs', 'export default () => "x".repeat(5000);\n', { spec: { maxOutputBytes: 1000 } });
    assert.equal(long.isError, false);
    assert.match(long.text, /^x{1000}\n\[output truncated: 4000 more bytes were not captured \(cap 1000 bytes\)\]$/);
    const noisy = await runModule('tools/noisy.mjs', 'export default () => { console.log("on stdout"); console.error("on stderr"); throw new Error("after printing"); };\n');
    assert.match(noisy.text, /threw Error: after printing[\s\S]*stdout:\non stdout\n[\s\S]*stderr:\non stderr/);
  });

  test('a module that imports another file, has no default export or throws a non-Error says so', async () => {
    const imports = await runModule('tools/imports.mjs', 'import helper from "./helper.mjs";\nexport default helper;\n');
    assert.match(imports.text, /tools\/imports\.mjs imports "\.\/helper\.mjs", which a code tool cannot load: its module may import only Node's built-in modules/);
    const noDefault = await runModule('tools/no-default.mjs', 'export const tool = () => "x";\n');
    assert.match(noDefault.text, /the module's default export is missing/);
    const thrown = await runModule('tools/throws-string.mjs', 'export default () => { throw "plain text"; };\n');
    assert.match(thrown.text, /threw a value that is not an Error: a string \("plain text"\)/);
  });

  test('buffers, which the heap cap does not count, are stopped by the resident memory cap (Linux)', { skip: process.platform !== 'linux' }, async () => {
    const grow = 'export default async () => {\n  const kept = [];\n  for (;;) {\n    kept.push(Buffer.alloc(4 * 1024 * 1024, 1));\n    await new Promise((resolve) => setTimeout(resolve, 10));\n  }\n};\n';
    const result = await runModule('tools/buffers.mjs', grow, { spec: { maxHeapMb: 16, timeout: 30_000 } });
    assert.equal(result.isError, true);
    assert.match(result.text, /^The code tool ran out of memory: its process used \d+ MB, more than the cap of 272 MB \(the heap cap "maxHeapMb" plus 256 MB for Node and Buffers\)/);
  });

  test('each call runs in a process of its own, even when it was started ahead of the call', async () => {
    workspace.write('tools/pid.mjs', 'globalThis.calls = (globalThis.calls ?? 0) + 1;\nexport default () => `${process.pid}:${globalThis.calls}`;\n');
    const spec: CodeHandlerSpec = { type: 'code', module: 'tools/pid.mjs' };
    const target = await targetFor(spec);
    const captured: Captured = { logs: [], progress: [] };
    const handler = codeHandler.compile(spec, target);
    assert.ok('run' in handler);
    const seen: string[] = [];
    for (let call = 0; call < 3; call++) {
      seen.push((await handler.run({}, contextFor(captured))).text);
    }
    assert.equal(new Set(seen.map((text) => text.split(':')[0])).size, 3, seen.join(' '));
    assert.deepEqual(seen.map((text) => text.split(':')[1]), ['1', '1', '1']);
  });

  test('a function whose promise can never settle is an error, not a hang', async () => {
    const result = await runModule('tools/never.mjs', 'export default () => new Promise(() => {});\n');
    assert.match(result.text, /^The code tool's module threw Error: the function's promise never settled/);
  });

  test('a module changed since it was loaded is not run', async () => {
    workspace.write('tools/changes.mjs', 'export default () => "approved";\n');
    const spec: CodeHandlerSpec = { type: 'code', module: 'tools/changes.mjs' };
    const target = await targetFor(spec);
    const captured: Captured = { logs: [], progress: [] };
    assert.equal((await runAsRegistry(codeHandler, spec, target, {}, contextFor(captured))).text, 'approved');
    workspace.write('tools/changes.mjs', 'export default () => "not approved";\n');
    const refused = await runAsRegistry(codeHandler, spec, target, {}, contextFor(captured));
    assert.equal(refused.isError, true);
    assert.match(refused.text, /its module tools\/changes\.mjs changed since the tool was loaded, so it was not run/);
  });
});
