/**
 * A world for the OS sandbox tests (issue 34): a private HOME with fake credentials
 * (~/.ssh/id_ed25519, ~/.netrc), a workspace that is a git repository, a folder outside both, a
 * loopback HTTP server in the test process that counts its requests, and the real built server
 * (dist/mcp-server.js) over stdio with the SDK client, its history in the private home. One
 * server per world, so one set of sandbox brokers per test file.
 *
 * Whether the machine can sandbox is probed once, with the engine's own probe (the broker runs a
 * sandboxed `true`). Where it cannot, a test that needs it fails with the probe's reason and
 * what fixes it: nothing is skipped. These are tests of the Linux sandbox (bubblewrap, seccomp),
 * where the suites run (CONTRIBUTING.md).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallRecord } from '../../../src/core/history/call-record';
import { createSandbox } from '../../../src/core/sandbox/sandbox-service';
import type { SandboxStatus } from '../../../src/core/sandbox/status';
import { userPlace } from '../../../src/core/sandbox/user-place';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { SERVER_PATH, resultText } from '../helpers/mcp-client';

/** What the fake credentials hold: no tool output may ever contain these. */
export const SSH_KEY = 'FAKE-PRIVATE-KEY-c3a9e1';
export const NETRC = 'machine example.com login me password FAKE-NETRC-7f42d0';

/** What the loopback server answers. */
export const LOOPBACK_ANSWER = 'HELLO-FROM-LOOPBACK';

/** The probe's answer, once per process. */
let probed: Promise<SandboxStatus> | undefined;

/** Whether this machine can sandbox (the engine's probe, with the compiled broker). */
export function probeSandbox(): Promise<SandboxStatus> {
  probed ??= (async () => {
    const silent = { trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
    const sandbox = createSandbox({ setting: 'preferred', user: userPlace({ approvalStorePath: path.join(tmpdir(), 'wt-probe', 'approvals.json') }), env: process.env, logger: silent });
    try {
      return await sandbox.ready(tmpdir());
    } finally {
      sandbox.dispose();
    }
  })();
  return probed;
}

/**
 * Fails the test, with the probe's reason and what fixes it, when this machine cannot sandbox:
 * what these tests prove needs the sandbox, and `npm test` installs bubblewrap and socat
 * (scripts/test-unit.mjs), so a machine without it is a machine to fix, not a test to skip.
 */
export async function needsSandbox(): Promise<void> {
  const status = await probeSandbox();
  if (status.state !== 'available') {
    const why = status.state === 'unavailable' ? `${status.reason} (to fix: ${status.howToFix})` : status.state;
    throw new Error(`the OS sandbox is unavailable here: ${why}`);
  }
}

/** How to start a world. */
export interface WorldOptions {
  /** Files of the workspace by relative path (plugin files, tasks.json, package.json, ...). */
  readonly files: Readonly<Record<string, string>>;
  /** Flags after `--workspace DIR` (e.g. `--sandbox required`). */
  readonly serverArgs?: readonly string[];
  /** More environment of the server (e.g. WORKSPACE_TOOLS_BWRAP). */
  readonly env?: Readonly<Record<string, string>>;
  /** Directories put first on the server's PATH (just). */
  readonly path?: readonly string[];
}

export interface CallOutcome {
  readonly text: string;
  readonly isError: boolean;
}

export class SandboxWorld {
  readonly home: TempDir = makeTempDir('wt-sbx-home-');
  readonly workspace: TempDir = makeTempDir('wt-sbx-ws-');
  readonly outside: TempDir = makeTempDir('wt-sbx-outside-');
  /** Requests the loopback server answered. */
  hits = 0;
  private server: http.Server | undefined;
  private client: Client | undefined;
  private stderrText = '';
  private serverPid: number | undefined;

  private constructor(private readonly options: WorldOptions) {}

  /** Writes the world, starts the loopback server and the MCP server, and connects. */
  static async start(options: WorldOptions): Promise<SandboxWorld> {
    const world = new SandboxWorld(options);
    await world.open();
    return world;
  }

  /** The loopback server's URL (127.0.0.1, a free port). */
  get url(): string {
    const address = this.server?.address() as AddressInfo | null;
    return `http://127.0.0.1:${address?.port ?? 0}/`;
  }

  /** In a folder of its own: the history's folder is hidden from every tool (the home would be all of it). */
  get historyFile(): string {
    return path.join(this.home.path, '.local', 'state', 'wt-history', 'history.jsonl');
  }

  /** The server's environment: PATH (this Node first), the private home, nothing else of the user's. */
  env(): Record<string, string> {
    const home = this.home.path;
    return {
      PATH: [...(this.options.path ?? []), path.dirname(process.execPath), process.env['PATH'] ?? '/usr/bin:/bin'].join(path.delimiter),
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_STATE_HOME: path.join(home, '.local', 'state'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      GIT_CONFIG_NOSYSTEM: '1',
      ...this.options.env,
    };
  }

  stderr(): string {
    return this.stderrText;
  }

  async call(name: string, args: Record<string, unknown> = {}, signal?: AbortSignal): Promise<CallOutcome> {
    if (this.client === undefined) {
      throw new Error('the world is closed');
    }
    const result = await this.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000, ...(signal === undefined ? {} : { signal }) });
    return { text: resultText(result), isError: result.isError === true };
  }

  async toolNames(): Promise<string[]> {
    const listed = await this.client?.listTools();
    return (listed?.tools ?? []).map((tool) => tool.name);
  }

  /** The history's records so far (written in batches: waits until `count` are there). */
  async records(count: number): Promise<CallRecord[]> {
    return this.recordsWhen((records) => records.length >= count, `${count} records`);
  }

  /**
   * The records of calls started at `since` (epoch ms) or later, once every tool named has one
   * (written in batches: a call's record lands up to a batch later). The world is shared by a
   * file's tests, so a test reads the records of its own calls by their time, not by counting
   * lines: another test's record may still be waiting for its batch.
   */
  async recordsOf(tools: readonly string[], since: number): Promise<CallRecord[]> {
    const own = (records: readonly CallRecord[]): CallRecord[] => records.filter((record) => Date.parse(record.time) >= since);
    return own(await this.recordsWhen((records) => tools.every((tool) => own(records).some((record) => record.tool === tool)), `records of ${tools.join(', ')} since ${new Date(since).toISOString()}`));
  }

  private async recordsWhen(enough: (records: readonly CallRecord[]) => boolean, what: string): Promise<CallRecord[]> {
    for (let waited = 0; waited < 10_000; waited += 50) {
      const records = readText(this.historyFile)
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as CallRecord);
      if (enough(records)) {
        return records;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no ${what} in ${this.historyFile} after 10 s`);
  }

  /** Processes other than the server whose working directory is the workspace (its brokers). */
  brokersInWorkspace(): number[] {
    const workspace = realpathSync(this.workspace.path);
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== this.serverPid)
      .filter((pid) => {
        try {
          return readlinkSync(`/proc/${pid}/cwd`) === workspace && readText(`/proc/${pid}/cmdline`).includes('sandbox-broker');
        } catch {
          return false;
        }
      })
      .map(Number);
  }

  async close(): Promise<void> {
    await this.client?.close();
    this.client = undefined;
    await new Promise<void>((resolve) => (this.server === undefined ? resolve() : this.server.close(() => resolve())));
    this.server = undefined;
  }

  dispose(): void {
    this.home.cleanup();
    this.workspace.cleanup();
    this.outside.cleanup();
  }

  private async open(): Promise<void> {
    this.home.write('.ssh/id_ed25519', `-----BEGIN OPENSSH PRIVATE KEY-----\n${SSH_KEY}\n-----END OPENSSH PRIVATE KEY-----\n`);
    this.home.write('.netrc', `${NETRC}\n`);
    this.home.write('.gitconfig', '[user]\n\tname = Sandbox Test\n\temail = sandbox@example.com\n');
    for (const [file, text] of Object.entries(this.options.files)) {
      this.workspace.write(file, text);
    }
    const git = (...args: string[]): void => void execFileSync('git', args, { cwd: this.workspace.path, env: this.env(), stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'the first commit');
    this.server = http.createServer((_request, response) => {
      this.hits += 1;
      response.end(LOOPBACK_ANSWER);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SERVER_PATH, '--workspace', this.workspace.path, '--approve-existing', '--no-builtins', '--no-watch', '--history', this.historyFile, ...(this.options.serverArgs ?? [])],
      cwd: this.workspace.path,
      env: this.env(),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (this.stderrText += chunk.toString('utf8')));
    this.client = new Client({ name: 'workspace-tools-sandbox-tests', version: '1.0.0' });
    await this.client.connect(transport);
    this.serverPid = transport.pid ?? undefined;
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The pids of the processes (anywhere on this machine) whose argv is exactly `argv`. */
export function processesRunning(argv: readonly string[]): number[] {
  const wanted = `${argv.join('\0')}\0`;
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && readText(`/proc/${entry}/cmdline`) === wanted)
    .map(Number);
}

/** The pids of the processes whose parent is one of `parents`. */
export function childrenOf(parents: readonly number[]): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      // /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold spaces, so read after its last ")".
      const stat = readText(`/proc/${pid}/stat`);
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return parents.includes(ppid);
    })
    .map(Number);
}

/** The host socat bridges of sandbox runtimes that lost their parent (init adopted them), by pid. */
export function orphanedBridges(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      const stat = readText(`/proc/${pid}/stat`);
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return fields[0] !== 'Z' && fields[1] === '1' && readText(`/proc/${pid}/cmdline`).includes('claude-http-');
    })
    .map(Number);
}

/** Waits until `check` holds, up to `ms`; whether it did. */
export async function eventually(check: () => boolean, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 50) {
    if (check()) {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

/** A plugin file's text from its tools. */
export function pluginFile(tools: ReadonlyArray<Record<string, unknown>>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ name: 'sandboxed', ...extra, tools }, null, 2);
}

/** A shell tool running a POSIX script (values as $1, $2, ...). */
export function scriptTool(name: string, tags: readonly string[], script: string, args: readonly string[] = [], extra: Record<string, unknown> = {}): Record<string, unknown> {
  const properties = Object.fromEntries(args.map((arg) => [arg, { type: 'string' }]));
  return {
    name,
    description: `sandbox test tool ${name}`,
    tags,
    inputSchema: { type: 'object', properties },
    handler: { type: 'shell', script, args: args.map((arg) => `{{${arg}}}`) },
    ...extra,
  };
}

/** A Node one-liner that fetches its first argument and prints the body (exit 1 when it cannot). */
export const FETCH = "fetch(process.argv[1]).then((r) => r.text()).then((t) => console.log('GOT ' + t), (e) => { console.error('FAILED ' + String(e.cause ?? e)); process.exit(1); })";

/**
 * One world for a test file: started before its tests once the machine is known to sandbox,
 * closed after them. The accessor fails a test that runs without it (needsSandbox, called
 * first, says why).
 */
export function worldForFile(options: () => WorldOptions): () => SandboxWorld {
  let world: SandboxWorld | undefined;
  before(async () => {
    if ((await probeSandbox()).state === 'available') {
      world = await SandboxWorld.start(options());
    }
  });
  after(async () => {
    await world?.close();
    world?.dispose();
  });
  return () => {
    assert.ok(world !== undefined, 'the world did not start');
    return world;
  };
}
