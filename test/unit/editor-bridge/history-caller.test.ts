/**
 * A call through the bridge is recorded in the window's history with its door and its caller,
 * and the History view's record says both: the window's registry, serving the editor tools as
 * extra tools beside the built-ins, with a real history file.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ApproveAllPolicy } from '../../../src/core/approval/approval-policy';
import { createEditorTools } from '../../../src/core/editor-bridge/editor-tools';
import { HistoryFile } from '../../../src/core/history/history-file';
import { DEFAULT_LIMITS } from '../../../src/core/types';
import { createWorkspaceRegistry } from '../../../src/core/workspace-registry';
import { recordDocument, recordDescription } from '../../../src/extension/view-text/call-record-text';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { memoryLogger } from '../helpers/fake-tools';
import { scriptedEditor } from './scripted-editor';

describe('bridge calls in the History view', () => {
  let workspace: TempDir;
  before(() => {
    workspace = makeTempDir('wt-bridge-history-');
    workspace.write('src/main.ts', 'const n = 1;\n');
  });
  after(() => workspace.cleanup());

  test('recorded with door "bridge" and the caller, worded "agent in a terminal"', async () => {
    const history = new HistoryFile(path.join(workspace.path, 'history.jsonl'), memoryLogger());
    const registry = createWorkspaceRegistry({
      folders: () => [{ name: 'app', path: workspace.path }],
      includeBuiltins: false,
      extraTools: createEditorTools(scriptedEditor({ hover: ['const n: 1'] })),
      includePlugins: false,
      approval: new ApproveAllPolicy(),
      limits: () => DEFAULT_LIMITS,
      env: {},
      logger: memoryLogger(),
      history,
    });
    try {
      const caller = 'workspace-tools-mcp 0.1.0 (serve), pid 4242, through the editor bridge';
      const result = await registry.call('editor-hover', { path: 'src/main.ts', line: 1, column: 7 }, { signal: new AbortController().signal, door: 'bridge', caller });
      assert.equal(result.isError, false, result.text);
      await history.flush();
      const [record] = await history.read(1);
      assert.equal(record?.tool, 'editor-hover');
      assert.equal(record?.door, 'bridge');
      assert.equal(record?.caller, caller);
      assert.match(recordDescription(record, 'en-US'), /^agent in a terminal · /);
      assert.match(recordDocument(record, 'en-US'), /- From: agent in a terminal\n- Caller: workspace-tools-mcp 0\.1\.0 \(serve\), pid 4242, through the editor bridge\n/);
    } finally {
      registry.dispose();
    }
  });
});
