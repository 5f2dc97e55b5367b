/**
 * The real built server and its command line with a private HOME (and XDG directories inside
 * it), and environment variables of the test's choosing: nothing of the user's is read or
 * written, and a "secret" set here is in the server's environment only.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import type { CliRun } from '../helpers/cli';
import { runServerScript } from '../helpers/cli';
import { SERVER_PATH } from '../helpers/mcp-client';

/** A workspace and a private home, with the environment every process of the test gets. */
export class PrivateHome {
  readonly workspace: TempDir = makeTempDir('wt-values-ws-');
  readonly home: TempDir = makeTempDir('wt-values-home-');

  constructor(private readonly extraEnv: Readonly<Record<string, string>> = {}) {}

  env(): Record<string, string> {
    const home = this.home.path;
    return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: `${home}/.config`, XDG_STATE_HOME: `${home}/.local/state`, XDG_CACHE_HOME: `${home}/.cache`, ...this.extraEnv };
  }

  /** Runs `node dist/mcp-server.js ARGS --workspace DIR`; its exit code and output. */
  cli(args: readonly string[]): Promise<CliRun> {
    return runServerScript([...args, '--workspace', this.workspace.path], { cwd: this.workspace.path, env: this.env() });
  }

  /** The server over stdio with the SDK client (history on, in the private home). */
  async connect(): Promise<{ client: Client; stderr: () => string; close: () => Promise<void> }> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SERVER_PATH, '--workspace', this.workspace.path, '--no-builtins', '--no-watch'],
      cwd: this.workspace.path,
      env: this.env(),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'workspace-tools-values-tests', version: '1.0.0' });
    await client.connect(transport);
    return { client, stderr: () => stderr, close: () => client.close() };
  }

  dispose(): void {
    this.workspace.cleanup();
    this.home.cleanup();
  }
}
