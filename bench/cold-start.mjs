/**
 * Start-up and the first call, on fresh processes every time, every server in turn: spawn ->
 * `initialize` answered, -> the first `tools/list`, and the first `tools/call` after a pause.
 * Each in wall time and in the server's own CPU time (from /proc), which a loaded machine
 * inflates far less than wall time.
 */
import { spawn } from 'node:child_process';
import { connect, disconnect, time } from './mcp-clients.mjs';
import { processCpuMs } from './process-cpu.mjs';

/**
 * How long a host waits between listing the tools and its first call: the model reads the list
 * first (seconds, in practice). The server may use the pause (it gets the first call ready then).
 */
export const THINK_MS = 250;

/**
 * Records `cold.init.<id>` (spawn -> initialize answered, ms), `cold.initcpu.<id>` (server CPU by then),
 * `cold.list.<id>`, and for servers in `firstCalls` `cold.call.<id>` and `cold.callcpu.<id>`
 * (the first call's wall time and the server CPU it took); `cold.init.node` is `node -e 0`.
 * @param {import('./mcp-clients.mjs').ServerSpec[]} servers
 * @param {Record<string, (client: import('@modelcontextprotocol/sdk/client/index.js').Client) => Promise<unknown>>} firstCalls
 */
export async function coldStart(servers, firstCalls, { iterations, record }) {
  for (let i = 0; i < iterations; i++) {
    for (const spec of i % 2 === 0 ? servers : [...servers].reverse()) {
      const connection = await connect(spec);
      const pid = connection.transport.pid;
      record(`cold.initcpu.${spec.id}`, connection.initCpuMs);
      record(`cold.init.${spec.id}`, connection.initMs);
      const listMs = await time(() => connection.client.listTools());
      record(`cold.list.${spec.id}`, connection.initMs + listMs);
      const firstCall = firstCalls[spec.id];
      if (firstCall !== undefined) {
        await new Promise((resolve) => setTimeout(resolve, THINK_MS));
        const before = processCpuMs(pid);
        record(`cold.call.${spec.id}`, await time(() => firstCall(connection.client)));
        record(`cold.callcpu.${spec.id}`, processCpuMs(pid) - before);
      }
      await disconnect(connection);
    }
    record('cold.init.node', await time(() => nodeNoop()));
  }
}

/** `node -e 0`: spawn to exit, the floor of any Node server's start. */
function nodeNoop() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', resolve);
  });
}
