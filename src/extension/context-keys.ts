/**
 * The context keys the extension sets (for `when` clauses of views, welcome content and the
 * walkthrough's completion events) and the walkthrough's id. No `vscode` import: the manifest
 * test checks package.json against these names.
 */

/**
 * Walkthrough events: each is set to true and back to false when its event happens (see
 * walkthrough-events.ts). VS Code completes a step when its `onContext:` expression *becomes*
 * true while the walkthrough is registered; a key that stayed true (a count, "has files")
 * would be true already when VS Code registers the walkthrough, and then never complete it.
 */
export const WALKTHROUGH_EVENTS = {
  /** Chat ran a built-in tool. */
  usedInChat: 'workspaceTools.event.usedInChat',
  /** A plugin file appeared (New Plugin File, or written by anyone). */
  pluginFileAdded: 'workspaceTools.event.pluginFileAdded',
  /** One more plugin file is approved (here, in a terminal or in another window). */
  fileApproved: 'workspaceTools.event.fileApproved',
  /** A Run Tool run succeeded. */
  toolRan: 'workspaceTools.event.toolRan',
  /** Write .mcp.json for Claude Code wrote its files. */
  claudeConfigured: 'workspaceTools.event.claudeConfigured',
} as const;

/** The walkthrough's id in package.json (`contributes.walkthroughs`). */
export const WALKTHROUGH_ID = 'gettingStarted';

/**
 * True while VS Code's chat gets the plugin tools from a server the project's `.mcp.json` or
 * `.vscode/mcp.json` starts, and that server serves the built-in tools too (no `--no-builtins`):
 * the built-ins' language model tools are then hidden (their `when` clause), so chat has each
 * tool once. Set by mcp-provider.ts.
 */
export const PROJECT_SERVER_SERVES_BUILTINS = 'workspaceTools.projectServerServesBuiltins';

/**
 * The ids of the Testing view's items (file, tool, test) whose plugin file waits for approval: its
 * Approve action shows on exactly those (`testId in workspaceTools.testsAwaitingApproval`). Set by
 * testing/tool-tests.ts.
 */
export const TESTS_AWAITING_APPROVAL = 'workspaceTools.testsAwaitingApproval';

/** Whether the History view lists the runs of declared tests (its title's toggle). Set by history/history-view.ts. */
export const HISTORY_SHOWS_TEST_RUNS = 'workspaceTools.historyShowsTestRuns';
