// The ResourceService without a protocol: subscriptions are capped (also when asked for at once), and a template's variables
// tell a completion engine where their values come from.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';
import { MAX_SUBSCRIPTIONS, ResourceService, UnknownResourceError } from '../../../src/core/resources/resource-service';
import { DEFAULT_LIMITS } from '../../../src/core/types';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';

const quiet = { trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

let workspace: TempDir;
let service: ResourceService;
beforeEach(() => {
  workspace = makeTempDir('wt-res-service-');
  const folder = { name: 'ws', path: workspace.path };
  const resources = [
    { name: 'ticket', uriTemplate: 'tickets://{id}', file: 'tickets/{{id}}.md', variables: { id: { description: 'the number', complete: { files: 'tickets/*.md' } } } },
    { name: 'env', uriTemplate: 'env://{name}/{part}', command: ['echo', '{{name}}', '{{part}}'], variables: { name: { enum: ['dev', 'prod'] } } },
  ];
  const loaded = loadPluginFile(`${workspace.path}/.vscode/tools/r.json`, JSON.stringify({ resources }), folder);
  const files = [{ file: loaded.file, approved: true, loaded }];
  service = new ResourceService({
    source: { files: () => files, initialize: () => Promise.resolve(), onDidChange: () => ({ dispose: () => undefined }) },
    env: process.env,
    limits: () => DEFAULT_LIMITS,
    logger: quiet,
    onUpdated: () => undefined,
    onListChanged: () => undefined,
  });
});
afterEach(() => {
  service.dispose();
  workspace.cleanup();
});

describe('the resource service', () => {
  test(`at most ${MAX_SUBSCRIPTIONS} subscriptions at once; unsubscribing makes room; an unknown URI is refused`, async () => {
    for (let index = 0; index < MAX_SUBSCRIPTIONS; index++) {
      await service.subscribe(`tickets://${index}`);
    }
    await assert.rejects(service.subscribe('tickets://one-more'), /Too many subscriptions: at most 256/);
    await service.subscribe('tickets://0');
    service.unsubscribe('tickets://0');
    await service.subscribe('tickets://one-more');
    service.unsubscribe('tickets://1');
    await assert.rejects(service.subscribe('nothing://here'), UnknownResourceError);
  });

  test(`the cap holds for subscriptions asked for all at once (pipelined requests): ${MAX_SUBSCRIPTIONS + 1} at once, one refused`, async () => {
    const outcomes = await Promise.allSettled(Array.from({ length: MAX_SUBSCRIPTIONS + 1 }, (_, index) => service.subscribe(`tickets://${index}`)));
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [String(outcome.reason)] : []));
    assert.deepEqual(refused, [`Error: Too many subscriptions: at most ${MAX_SUBSCRIPTIONS} resources at once; unsubscribe from some first.`]);
  });

  test("a template variable's completion source is what the file declares; undefined for what is not served", () => {
    assert.deepEqual(service.variableCompletion('tickets://{id}', 'id'), { description: 'the number', complete: { files: 'tickets/*.md' } });
    assert.deepEqual(service.variableCompletion('env://{name}/{part}', 'name'), { enum: ['dev', 'prod'] });
    assert.deepEqual(service.variableCompletion('env://{name}/{part}', 'part'), {});
    assert.equal(service.variableCompletion('env://{name}/{part}', 'other'), undefined);
    assert.equal(service.variableCompletion('nothing://{x}', 'x'), undefined);
  });
});
