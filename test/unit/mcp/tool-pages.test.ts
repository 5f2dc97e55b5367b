import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JSONRPCMessage, ListToolsResult } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { ToolDefinition } from '../../../src/core/types';
import { toMcpTool } from '../../../src/mcp/server';
import { TOOLS_PAGE_SIZE, ToolListPages } from '../../../src/mcp/tool-pages';
import { toolDefinition } from '../helpers/fake-tools';

/** A tool set the test can change, standing in for the registry's served tools and fingerprint. */
function toolSet(count: number): { fingerprint: string; tools: ToolDefinition[]; list(): readonly ToolDefinition[] } {
  const tools = Array.from({ length: count }, (_, index) => toolDefinition(`tool-${index}`));
  return { fingerprint: `set of ${count}`, tools, list: () => tools };
}

/** Every page from the first, following nextCursor. */
function walk(pages: ToolListPages): ListToolsResult[] {
  const answers = [pages.page(undefined)];
  for (let cursor = answers[0]?.nextCursor; cursor !== undefined; cursor = answers[answers.length - 1]?.nextCursor) {
    answers.push(pages.page(cursor));
    assert.ok(answers.length < 100, 'the pages never end');
  }
  return answers;
}

const names = (answers: readonly ListToolsResult[]): string[] => answers.flatMap((answer) => answer.tools.map((tool) => tool.name));

/** Asserts that `run` throws the InvalidParams error of a refused cursor, with `why` in its message. */
function assertRefused(run: () => unknown, why: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ProtocolError);
    assert.equal(error.code, ProtocolErrorCode.InvalidParams);
    assert.match(error.message, /Invalid cursor ".*": /);
    assert.match(error.message, why);
    assert.match(error.message, /; list again without a cursor$/);
    return true;
  });
}

const cursorOf = (content: unknown): string => Buffer.from(JSON.stringify(content)).toString('base64url');

describe('tools/list pages', () => {
  test(`a list of up to ${TOOLS_PAGE_SIZE} tools is one page without a cursor`, () => {
    for (const count of [0, 7, TOOLS_PAGE_SIZE]) {
      const answer = new ToolListPages(toolSet(count), toMcpTool).page(undefined);
      assert.equal(answer.tools.length, count);
      assert.equal('nextCursor' in answer, false, `${count} tools`);
    }
  });

  test('a longer list is cut into full pages, every tool once, in registration order', () => {
    const source = toolSet(2 * TOOLS_PAGE_SIZE + 1);
    const answers = walk(new ToolListPages(source, toMcpTool));
    assert.deepEqual(answers.map((answer) => answer.tools.length), [TOOLS_PAGE_SIZE, TOOLS_PAGE_SIZE, 1]);
    assert.deepEqual(names(answers), source.tools.map((tool) => tool.name));
    assert.equal(answers[2]?.nextCursor, undefined);
  });

  test('a page asked for twice is the same answer, and a transport gets it as the bytes the SDK would write', () => {
    const pages = new ToolListPages(toolSet(150), toMcpTool);
    const first = pages.page(undefined);
    assert.equal(pages.page(undefined), first);
    const second = pages.page(first.nextCursor);
    for (const result of [first, second]) {
      // As the SDK sends it on 2025-11-25: the answer itself.
      const message = { jsonrpc: '2.0', id: 'req-7', result } as JSONRPCMessage;
      assert.equal(pages.serialized(message)?.toString('utf8'), `${JSON.stringify(message)}\n`);
      // On 2026-07-28: a copy of the answer with the same tools, and the fields of that revision.
      const modern = { jsonrpc: '2.0', id: 8, result: { ...result, resultType: 'complete', ttlMs: 0, cacheScope: 'private', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } } } } as JSONRPCMessage;
      const bytes = pages.serialized(modern)?.toString('utf8') ?? '';
      assert.ok(bytes.endsWith('}\n') && !bytes.slice(0, -1).includes('\n'), 'one line');
      assert.deepEqual(JSON.parse(bytes), modern);
    }
    const otherAnswer = { jsonrpc: '2.0', id: 1, result: { tools: [...first.tools] } } as JSONRPCMessage;
    assert.equal(pages.serialized(otherAnswer), undefined);
    assert.equal(pages.serialized({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }), undefined);
  });

  test('malformed and made-up cursors are refused, saying why', () => {
    const pages = new ToolListPages(toolSet(250), toMcpTool);
    const valid = JSON.parse(Buffer.from(pages.page(undefined).nextCursor ?? '', 'base64url').toString('utf8')) as { tag: string };
    assertRefused(() => pages.page('bogus'), /not a cursor this server issued/);
    assertRefused(() => pages.page(''), /not a cursor this server issued/);
    assertRefused(() => pages.page(cursorOf({ offset: '100', tag: valid.tag })), /not a cursor this server issued/);
    assertRefused(() => pages.page(cursorOf({ offset: 50, tag: valid.tag })), /points at no page/);
    assertRefused(() => pages.page(cursorOf({ offset: 300, tag: valid.tag })), /points at no page/);
    assertRefused(() => pages.page(cursorOf({ offset: 0, tag: valid.tag })), /points at no page/);
    assertRefused(() => pages.page(cursorOf({ offset: 100, tag: 'another-tool-set' })), /tool list changed/);
  });

  test('a long bogus cursor is quoted only in part', () => {
    const pages = new ToolListPages(toolSet(1), toMcpTool);
    assert.throws(() => pages.page('x'.repeat(10_000)), (error: Error) => error.message.length < 300);
  });

  test('when the tool set changes, older cursors are refused and the pages are rebuilt', () => {
    const source = toolSet(250);
    const pages = new ToolListPages(source, toMcpTool);
    const before = pages.page(undefined);
    const renamed = source.tools.map((tool) => ({ ...tool, name: `new-${tool.name}` }));
    source.fingerprint = 'renamed';
    source.list = () => renamed;
    assertRefused(() => pages.page(before.nextCursor), /tool list changed since it was issued/);
    const after = walk(pages);
    assert.deepEqual(names(after), renamed.map((tool) => tool.name));
    assert.notEqual(after[0], before);
    // The old answers' bytes are dropped with them: nothing serves the old tool set any more.
    assert.equal(pages.serialized({ jsonrpc: '2.0', id: 1, result: before }), undefined);
  });
});
