// What a person approves includes what each resource reads or runs.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { approvalSubjectOf } from '../../../src/core/approval/approval-subject';
import { approvalLines } from '../../../src/core/approval/approval-text';
import { testSandboxView } from '../helpers/sandbox-view';
import { loadPluginFile } from '../../../src/core/plugins/load-plugin-file';

describe('approving a file with resources', () => {
  test('each resource is a line: its name, URI or template, and the file it reads or the command it runs', () => {
    const loaded = loadPluginFile(
      '/ws/.vscode/tools/docs.json',
      JSON.stringify({
        resources: [
          { name: 'guide', uri: 'docs://guide', file: 'docs/guide.md' },
          { name: 'docs', files: 'docs/**/*.md' },
          { name: 'config', uriTemplate: 'config://{env}', command: ['node', 'print.js', '{{env}}'] },
        ],
      }),
      { name: 'ws', path: '/ws' },
    );
    const subject = approvalSubjectOf({ loaded, file: loaded.file, pluginName: loaded.pluginName, approval: 'new', tools: [], diagnostics: [] });
    assert.deepEqual(approvalLines(subject, testSandboxView()), [
      '• resource guide (docs://guide) reads: docs/guide.md',
      '• resource docs (workspace-tools://file/ws/docs/**/*.md) reads the files matching: docs/**/*.md',
      '• resource config (config://{env}) runs: node print.js {{env}}',
      '',
    ]);
  });
});
