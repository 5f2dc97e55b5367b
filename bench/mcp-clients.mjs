/**
 * The servers under test and how the benchmark talks to them: the SDK `Client` over a real
 * `StdioClientTransport`, exactly what an MCP host does, so client-side costs are the same for
 * every server and cancel out of the ratios.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { processCpuMs } from './process-cpu.mjs';

/**
 * @typedef {object} ServerSpec
 * @property {string} id      short key used in results
 * @property {string} label   name shown in tables
 * @property {string[]} args  arguments to `node`
 * @property {Record<string, string>} [env]  variables added to the SDK's default environment
 * @property {string} [command]  the node binary (default: the one running the bench)
 */

/**
 * @typedef {object} Connection
 * @property {Client} client
 * @property {StdioClientTransport} transport
 * @property {number} initMs  spawn -> `initialize` answered
 * @property {number | undefined} initCpuMs  the server's CPU time by then (bench/process-cpu.mjs)
 */

/**
 * Spawns the server and completes the MCP handshake, timing it from before the spawn.
 * @param {ServerSpec} spec
 * @returns {Promise<Connection>}
 */
/**
 * The servers' per-user state (the call history) goes to a temp directory of this run, never to
 * the user's ~/.local/state: every benchmarked call is recorded, as in real use.
 */
const STATE_HOME = mkdtempSync(join(tmpdir(), 'wt-bench-state-'));
process.on('exit', () => rmSync(STATE_HOME, { recursive: true, force: true }));

export async function connect(spec) {
  const transport = new StdioClientTransport({
    command: spec.command ?? process.execPath,
    args: spec.args,
    stderr: 'ignore',
    env: { XDG_STATE_HOME: STATE_HOME, ...spec.env },
  });
  const client = new Client({ name: 'workspace-tools-bench', version: '1.0.0' });
  const started = performance.now();
  // The moment `initialize` is answered: when the client sends `initialized`, before the server
  // hears it (and starts the work it does after the handshake).
  let answered;
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (answered === undefined && message.method === 'notifications/initialized') {
      answered = { ms: performance.now() - started, cpuMs: processCpuMs(transport.pid) };
    }
    return send(message, options);
  };
  await client.connect(transport);
  return { client, transport, initMs: answered?.ms ?? performance.now() - started, initCpuMs: answered?.cpuMs };
}

/**
 * Closes the client; the transport ends the server's stdin and waits for it to exit.
 * @param {Connection} connection
 */
export async function disconnect(connection) {
  await connection.client.close();
}

/**
 * Calls a tool and fails loudly on an error result: a benchmark of error replies would measure
 * the wrong thing.
 * @param {Client} client
 * @param {string} name
 * @param {Record<string, unknown>} args
 */
export async function callOk(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError === true) {
    throw new Error(`${name} returned an error: ${JSON.stringify(result.content).slice(0, 300)}`);
  }
  return result;
}

/**
 * Every tool a server serves, following `nextCursor` page by page as an MCP host does (VS Code
 * walks the pages itself; the SDK `Client.listTools()` answers with one page).
 * @param {Client} client
 */
export async function listAllTools(client) {
  const tools = [];
  let cursor;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

/**
 * Milliseconds one async operation takes.
 * @param {() => Promise<unknown>} operation
 */
export async function time(operation) {
  const started = performance.now();
  await operation();
  return performance.now() - started;
}

/**
 * Peak resident set size (VmHWM) of a live process in MiB, from /proc; undefined off Linux.
 * @param {number | null | undefined} pid
 */
export function peakRssMiB(pid) {
  if (pid === null || pid === undefined) {
    return undefined;
  }
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    return match === null ? undefined : Number(match[1]) / 1024;
  } catch {
    return undefined;
  }
}

/**
 * Calls per second with `inFlight` calls kept outstanding until `total` calls are done.
 * @param {() => Promise<unknown>} call
 * @param {number} inFlight
 * @param {number} total
 */
export async function throughput(call, inFlight, total) {
  let started = 0;
  const worker = async () => {
    while (started < total) {
      started += 1;
      await call();
    }
  };
  const begin = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  return (total / (performance.now() - begin)) * 1000;
}

/**
 * A bare newline-delimited JSON-RPC client on the server's stdio: what a request costs without
 * the SDK client's schema validation of the answer (which, for 1,000 tools, is most of it).
 * @param {ServerSpec} spec
 */
export async function connectRaw(spec) {
  const child = spawn(process.execPath, spec.args, { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, XDG_STATE_HOME: STATE_HOME } });
  const pending = new Map();
  let nextId = 1;
  let buffered = '';
  let lastBytes = 0;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      lastBytes = line.length;
      const message = JSON.parse(line);
      pending.get(message.id)?.(message);
      pending.delete(message.id);
    }
  });
  const request = (method, params = {}) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return {
    request,
    /** Size in characters of the last answer. */
    lastBytes: () => lastBytes,
    close: () =>
      new Promise((resolve) => {
        child.on('exit', resolve);
        child.stdin.end();
      }),
  };
}
