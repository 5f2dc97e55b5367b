/**
 * Runs `dist/mcp-server.js <subcommand>` as a user does: a real process, with XDG_CONFIG_HOME
 * pointed at a test directory so the default approval store is the test's own.
 */
import { spawn } from 'node:child_process';
import { SERVER_PATH, testServerEnv } from './mcp-client';

/** What a finished command left behind. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** How to run it. */
export interface CliOptions {
  /** XDG_CONFIG_HOME for the process: where its default approval store lives. */
  readonly configHome: string;
  readonly cwd?: string;
  /** Written to standard input, which is then closed (default: closed at once, no input). */
  readonly input?: string;
  /** More environment variables for the process (e.g. a private HOME). */
  readonly env?: Readonly<Record<string, string>>;
}

/** Runs the server script with `args` and waits for it to exit. */
export function runCli(args: readonly string[], options: CliOptions): Promise<CliRun> {
  return runServerScript(args, { cwd: options.cwd ?? process.cwd(), env: testServerEnv(options.configHome, options.env), ...(options.input === undefined ? {} : { input: options.input }) });
}

/** Runs the server script with exactly `env` (a private home's, say) and waits for it to exit. */
export function runServerScript(args: readonly string[], options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly input?: string }): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SERVER_PATH, ...args], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
