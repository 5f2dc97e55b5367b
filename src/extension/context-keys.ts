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
