/**
 * Every `--workspace` must be a folder that exists before any command runs: a mistyped path
 * would otherwise be checked as "0 plugin files: no problems", served as an empty workspace,
 * or created by `init`.
 */
import { statSync } from 'node:fs';

/** Why one of `workspaces` cannot be used, or undefined when each is an existing folder. */
export function workspaceProblem(workspaces: readonly string[]): string | undefined {
  for (const folder of workspaces) {
    const stats = statSync(folder, { throwIfNoEntry: false });
    if (stats === undefined) {
      return `the workspace folder ${folder} does not exist (--workspace, or the current directory)`;
    }
    if (!stats.isDirectory()) {
      return `the workspace ${folder} is not a folder (--workspace names a folder)`;
    }
  }
  return undefined;
}
