/**
 * A session's first moments, as a chat client lives them: spawn the server, `initialize`,
 * `tools/list` at once, then three calls in a row (the same 10 KB read), on a fresh process every
 * time, every server in turn (reversed on odd iterations). Spawn -> first result is what a user
 * waits for before the first answer; the first `tools/list` after `initialize` shows work deferred
 * past the handshake; calls 2 and 3 show work that landed on the first calls. Each in wall time
 * and in the server's own CPU time (bench/process-cpu.mjs), read right after each answer. Wall
 * times end when the client's transport has read the answer, before the SDK `Client` checks it
 * (it compiles every listed tool's outputSchema with Ajv and parses each result with zod: work of
 * the client, which differs with the answer's shape, not the server's).
 */
import { connect, disconnect } from './mcp-clients.mjs';
import { processCpuMs } from './process-cpu.mjs';

/**
 * Records, per server id, `moments.first.<id>` (spawn -> first call answered, ms) and
 * `moments.firstcpu.<id>` (the server's CPU by then), `moments.list.<id>` (the first tools/list,
 * sent as soon as initialize is answered), and `moments.call2.<id>`, `moments.call3.<id>` with
 * `moments.call2cpu.<id>`, `moments.call3cpu.<id>`. The first `dropFirst` iterations are run and
 * not recorded (the machine's caches, the compile cache's first write).
 * @param {import('./mcp-clients.mjs').ServerSpec[]} servers
 * @param {Record<string, (client: import('@modelcontextprotocol/sdk/client/index.js').Client) => Promise<unknown>>} reads  the call, by server id
 */
export async function firstMoments(servers, reads, { iterations, dropFirst, record }) {
  for (let i = 0; i < iterations + dropFirst; i++) {
    for (const spec of i % 2 === 0 ? servers : [...servers].reverse()) {
      const read = reads[spec.id];
      const started = performance.now();
      const connection = await connect(spec);
      const pid = connection.transport.pid;
      const answered = answerTimes(connection.transport);
      const listMs = await answered(() => connection.client.listTools());
      await read(connection.client);
      const firstMs = answered.last() - started;
      const firstCpuMs = processCpuMs(pid);
      const call2 = await answered(() => read(connection.client));
      const cpu3 = processCpuMs(pid);
      const call3 = await answered(() => read(connection.client));
      const cpuEnd = processCpuMs(pid);
      await disconnect(connection);
      if (i >= dropFirst) {
        record(`moments.first.${spec.id}`, firstMs);
        record(`moments.firstcpu.${spec.id}`, firstCpuMs);
        record(`moments.list.${spec.id}`, listMs);
        record(`moments.call2.${spec.id}`, call2);
        record(`moments.call3.${spec.id}`, call3);
        record(`moments.call2cpu.${spec.id}`, cpu3 - firstCpuMs);
        record(`moments.call3cpu.${spec.id}`, cpuEnd - cpu3);
      }
    }
  }
}

/**
 * Times requests from when they are sent to when the client's transport has read their answer
 * (the last response it delivered), and `last()`: when that was.
 * @param {import('@modelcontextprotocol/sdk/client/stdio.js').StdioClientTransport} transport
 */
function answerTimes(transport) {
  let last = 0;
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('result' in message || 'error' in message) {
      last = performance.now();
    }
    deliver?.(message, extra);
  };
  /** @param {() => Promise<unknown>} request */
  const answered = async (request) => {
    const sent = performance.now();
    await request();
    return last - sent;
  };
  answered.last = () => last;
  return answered;
}
