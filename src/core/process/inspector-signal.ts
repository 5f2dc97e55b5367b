/**
 * SIGUSR1 makes a Node process that was not started with `--disable-sigusr1` open its inspector
 * on 127.0.0.1:9229, and whatever can reach that port (any process of the machine's users, a code
 * tool before Node 25 denies it the network) can then run code in it with all of its rights. A
 * JavaScript listener for the signal makes Node treat it as an ordinary event instead, on every
 * Node version: the processes that run or host code tools (the MCP server, the extension host)
 * install one at start. The listener stays for the life of the process: once the last SIGUSR1
 * listener is removed, the signal's default action ends the process. Windows has no SIGUSR1
 * (there `--disable-sigusr1` is what keeps another process from starting the inspector).
 */
import { hostPlatform } from '../platform/platform';

let installed = false;

/**
 * Keeps SIGUSR1 from opening this process's inspector; `onSignal` hears each one that arrives.
 * Installs one listener however often it is called; other listeners are not touched.
 */
export function ignoreInspectorSignal(onSignal: () => void = () => undefined): void {
  if (installed || hostPlatform().windows) {
    return;
  }
  installed = true;
  process.on('SIGUSR1', () => onSignal());
}

/**
 * NODE_OPTIONS without `flags`. A client configuration passes the server's hardening flags in
 * NODE_OPTIONS (npx starts Node itself), and every process the server starts would inherit them:
 * a tool's own `node` of an older version refuses an option it does not know and does not start.
 * The server's own Node read NODE_OPTIONS when it started, so taking them out changes nothing for it.
 */
export function withoutNodeOptions(nodeOptions: string | undefined, flags: readonly string[]): string | undefined {
  if (nodeOptions === undefined) {
    return undefined;
  }
  const kept = nodeOptions.split(/\s+/).filter((option) => option !== '' && !flags.includes(option));
  return kept.length === 0 ? undefined : kept.join(' ');
}
