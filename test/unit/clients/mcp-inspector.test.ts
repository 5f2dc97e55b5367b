/**
 * The official MCP Inspector (its `--cli`, pinned in helpers/mcp-inspector.ts) against the stdio
 * server on a workspace whose approved plugin file declares a tool, a prompt, a resource and a
 * resource template: it lists and calls the tool, lists the prompt and gets it rendered, lists and
 * reads the resource, lists the template and reads a URI of it, on both protocol eras it speaks (2025-11-25 with `initialize`, 2026-07-28
 * stateless). Each call is one Inspector process that starts its own server, as a person checking
 * a server from a terminal runs it. Completions are not asked here: the Inspector CLI 2.12.0 has no
 * method for `completion/complete` (it answers "Unsupported method: prompts/complete"); the v2 SDK
 * client's tests ask for them over stdio on both eras.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { InspectorEra, InspectorTarget } from '../helpers/mcp-inspector';
import { inspect, inspectorInstall } from '../helpers/mcp-inspector';
import type { ServedWorkspace } from './served-workspace';
import { GUIDE_TEXT, PLUGIN, servedWorkspace } from './served-workspace';

let workspace: ServedWorkspace;
let inspectorHome: string;
let target: InspectorTarget;

before(async () => {
  // Installs into the cache on a machine that has not got it yet (about a minute), once.
  inspectorInstall();
  workspace = await servedWorkspace('wt-inspector-');
  inspectorHome = mkdtempSync(path.join(tmpdir(), 'wt-inspector-home-'));
  target = { command: workspace.command, args: workspace.args, env: workspace.env, home: inspectorHome };
});

after(() => {
  workspace?.cleanup();
  if (inspectorHome !== undefined) {
    rmSync(inspectorHome, { recursive: true, force: true });
  }
});

const [SAY] = PLUGIN.tools;
const [REVIEW] = PLUGIN.prompts;

/** The protocol eras, and whether results carry the cache hints (ttlMs, cacheScope) only 2026-07-28 has. */
const ERAS: readonly (readonly [InspectorEra, string, boolean])[] = [
  ['legacy', '2025-11-25 (initialize)', false],
  ['modern', '2026-07-28 (stateless)', true],
];

// The two eras side by side (a call mostly waits for two processes to start), one call at a time
// in each: at most two Inspectors and two servers at once, on a machine of two cores.
describe('MCP Inspector CLI', { concurrency: ERAS.length }, () => {
  for (const [era, label, modern] of ERAS) {
    describe(`protocol ${label}`, { concurrency: 1 }, () => {
      test('tools/list lists the plugin tool with its description, input schema and read-only hint', async () => {
        const { tools } = (await inspect(target, era, 'tools/list')) as { tools: Array<Record<string, unknown>> };
        assert.deepEqual(
          tools.map((tool) => [tool['name'], tool['description'], tool['inputSchema'], tool['annotations']]),
          [[SAY?.name, SAY?.description, SAY?.inputSchema, { readOnlyHint: true, openWorldHint: false }]],
        );
      });

      test('tools/call runs the tool with the argument given and returns its output', async () => {
        const result = await inspect(target, era, 'tools/call', ['--tool-name', 'say', '--tool-arg', `word=${era}`]);
        assert.deepEqual([result['content'], result['isError']], [[{ type: 'text', text: `said ${era}` }], false]);
      });

      test('prompts/list lists the plugin prompt with its title, description and arguments', async () => {
        const { prompts } = (await inspect(target, era, 'prompts/list')) as { prompts: unknown[] };
        assert.deepEqual(prompts, [
          { name: REVIEW?.name, title: REVIEW?.title, description: REVIEW?.description, arguments: [{ name: 'focus', description: 'What to look at', required: true }] },
        ]);
      });

      test('prompts/get renders the prompt: the argument filled into the text, the guide embedded as a resource', async () => {
        const result = await inspect(target, era, 'prompts/get', ['--prompt-name', 'review', '--prompt-args', 'focus=tests']);
        assert.equal(result['description'], REVIEW?.description);
        assert.deepEqual(result['messages'], [
          { role: 'user', content: { type: 'text', text: 'Review the change with a focus on tests. Follow the team guide.' } },
          {
            role: 'user',
            content: { type: 'resource', resource: { uri: `workspace-tools://file/${path.basename(workspace.dir.path)}/docs/guide.md`, mimeType: 'text/markdown', text: GUIDE_TEXT } },
          },
        ]);
      });

      test('prompts/get without the required argument fails with the server\'s message naming the prompt and argument', async () => {
        await assert.rejects(inspect(target, era, 'prompts/get', ['--prompt-name', 'review']), /Prompt "review" needs the argument "focus"/);
      });

      test('resources/list lists the plugin resource with its title, description and MIME type', async () => {
        const { resources } = (await inspect(target, era, 'resources/list')) as { resources: unknown[] };
        assert.deepEqual(resources, [{ name: 'guide', title: 'Team guide', uri: 'docs://guide', description: 'How we review', mimeType: 'text/markdown' }]);
      });

      test(`resources/read returns the file's contents${modern ? ', with the 2026-07-28 cache hints' : ''}`, async () => {
        const result = await inspect(target, era, 'resources/read', ['--uri', 'docs://guide']);
        assert.deepEqual(result['contents'], [{ uri: 'docs://guide', mimeType: 'text/markdown', text: GUIDE_TEXT }]);
        // Proof of the era the Inspector negotiated: ttlMs/cacheScope exist only in 2026-07-28 results.
        assert.deepEqual([result['ttlMs'], result['cacheScope']], modern ? [0, 'private'] : [undefined, undefined], JSON.stringify(result));
      });

      test('resources/templates/list lists the template, and resources/read reads a URI that matches it', async () => {
        const { resourceTemplates } = (await inspect(target, era, 'resources/templates/list')) as { resourceTemplates: unknown[] };
        assert.deepEqual(resourceTemplates, [{ name: 'ticket', uriTemplate: 'tickets://{id}', description: 'One ticket by its number' }]);
        const { contents } = (await inspect(target, era, 'resources/read', ['--uri', 'tickets://7'])) as { contents: unknown[] };
        assert.deepEqual(contents, [{ uri: 'tickets://7', mimeType: 'text/markdown', text: 'Ticket 7: the release checklist\n' }]);
      });

      test('resources/read of a URI nothing serves fails with the server\'s message naming the URI', async () => {
        await assert.rejects(inspect(target, era, 'resources/read', ['--uri', 'docs://nope']), /Unknown resource docs:\/\/nope: no approved plugin file serves it/);
      });
    });
  }
});
