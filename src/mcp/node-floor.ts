/**
 * The oldest Node the server runs on, checked in the bin's first lines. On an older Node the
 * server would start and fail later in ways that name no version (a code tool "Unknown tool",
 * a flag refused before any code runs), and an MCP client shows only "Connection closed": the
 * one place a user can read is the client's log of our stderr, so the reason goes there first.
 * Kept free of anything newer than what Node 16 parses, so an old Node reaches the message.
 */
import { engines } from '../../package.json';

/** "22.14.0" from package.json's `engines.node` (">=22.14.0"), the one place the floor is set. */
export const NODE_FLOOR = engines.node.replace(/^>=\s*/, '');

/** Whether `version` ("v20.20.2" or "20.20.2") is at least `floor` ("22.14.0"). */
export function meetsFloor(version: string, floor: string = NODE_FLOOR): boolean {
  const have = version.replace(/^v/, '').split('.').map(Number);
  const need = floor.split('.').map(Number);
  for (let index = 0; index < need.length; index++) {
    const difference = (have[index] ?? 0) - (need[index] ?? 0);
    if (difference !== 0) {
      return difference > 0;
    }
  }
  return true;
}

/** What a user on an older Node reads, with how to get a newer one. */
export function nodeFloorMessage(version: string, executable: string): string {
  const major = NODE_FLOOR.split('.')[0] ?? '22';
  return [
    `workspace-tools-mcp needs Node.js ${NODE_FLOOR} or newer; it was started by Node ${version} (${executable}).`,
    `Install Node ${major} LTS or newer (https://nodejs.org, or "nvm install ${major}", "fnm install ${major}", "volta install node@${major}"),`,
    'make it the "node" and "npx" your MCP client finds on its PATH, and restart the client.',
    '',
  ].join('\n');
}
