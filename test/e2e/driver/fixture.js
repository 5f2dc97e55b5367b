'use strict';
// What the driver knows about the fixture workspace (test/e2e/fixture-workspace) and the run-time
// git state that scripts/e2e/run.sh leaves in it. Keep in sync with those two.
module.exports = {
  extensionId: 'workspace-tools.workspace-tools',
  viewContainerCommand: 'workbench.view.extension.workspaceTools',
  viewId: 'workspaceTools.tools',
  commands: {
    reload: 'workspaceTools.reload',
    approveFile: 'workspaceTools.approveFile',
    runTool: 'workspaceTools.runTool',
    newPluginFile: 'workspaceTools.newPluginFile',
    writeMcpJson: 'workspaceTools.writeMcpJson',
  },
  builtins: ['git-status', 'git-diff-summary', 'workspace-info', 'file-reader'],
  lmToolPrefix: 'workspaceTools_',
  git: {
    modified: 'src/app.js',            // tracked, modified after the commit (not staged)
    untracked: 'scratch-untracked.txt', // never added
  },
  readme: { path: 'README.md', marker: 'FIXTURE-README-MARKER-7f3a' },
  plugins: {
    good: 'good.json',           // echo-message (shell, read) + read-notes (file-read, read); JSONC with comments
    goodTools: ['echo-message', 'read-notes'],
    insertMarker: '// E2E-INSERT-TOOL-HERE',
    broken: 'broken.json',       // JSON syntax error: missing comma, reported at 1-based line 7, column 7
    brokenPos: { line: 7, column: 7 },
    invalid: 'invalid.json',     // valid JSONC, violates the schema (handler type, tool name pattern)
    duplicate: 'duplicate.json', // also declares "read-notes"; loads before good.json (name order) so it wins
    duplicateTool: 'read-notes',
    goodPrompt: { name: 'review-notes', arguments: ['focus'] }, // good.json's prompt: a text message and docs/notes.md embedded
  },
  notes: { marker: 'FIXTURE-NOTES-MARKER-c41d' }, // in docs/notes.md (read-notes' basePath is docs)
};
