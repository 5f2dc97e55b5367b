/**
 * The real Claude Code CLI (`@anthropic-ai/claude-code`, a native binary in a per-platform npm
 * package), installed from the npm registry into a cache outside the clone the first time, like
 * the e2e suite's code-server: 370 MB is too much to put into every `npm ci`. Without an API key it
 * still adds MCP servers and health-checks them (`claude mcp list` starts each server and
 * completes the MCP handshake), which is what a user's first session does before any prompt.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { withoutNpmSettings } from './registry';
import { cachedInstall, testCacheDir } from './test-cache';

/** The version the tests pin. */
export const CLAUDE_CODE_VERSION = '2.1.328';

/** The native binary: the platform package's own file (the wrapper's bin is a copy made by its postinstall, when scripts run). */
function binaryIn(dir: string): string | undefined {
  const platform = `${process.platform}-${process.arch}`;
  const candidates = [
    path.join(dir, 'node_modules', '@anthropic-ai', `claude-code-${platform}`, process.platform === 'win32' ? 'claude.exe' : 'claude'),
    path.join(dir, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe'),
  ];
  return candidates.find((file) => existsSync(file) && spawnSync(file, ['--version'], { stdio: 'ignore' }).status === 0);
}

/** The `claude` binary, installed into the cache when missing. */
export function claudeCodeBinary(): string {
  return cachedInstall(testCacheDir(`claude-code-${CLAUDE_CODE_VERSION}`), binaryIn, (staging) => {
    writeFileSync(path.join(staging, 'package.json'), '{ "private": true }\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`], { cwd: staging, env: withoutNpmSettings(), stdio: 'ignore' });
    if (binaryIn(staging) === undefined) {
      throw new Error(`npm installed @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} into ${staging}, but no claude binary for ${process.platform}-${process.arch} runs`);
    }
  });
}

/** Runs `claude ...args` in `cwd` with its home in `home`, no API key and no traffic but to the servers it starts. */
export function runClaude(args: readonly string[], options: { cwd: string; home: string; env: Record<string, string> }): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(claudeCodeBinary(), [...args], {
    cwd: options.cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      ...options.env,
      HOME: options.home,
      USERPROFILE: options.home,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
    },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A fresh home directory for one Claude Code user. */
export function claudeHome(parent: string): string {
  return mkdtempSync(path.join(parent, 'claude-home-'));
}

/** What Claude Code says of one connection to an MCP server, once the handshake is over. */
export interface ClaudeMcpConnection {
  readonly hasTools: boolean;
  readonly hasPrompts: boolean;
  readonly hasResources: boolean;
  readonly hasResourceSubscribe: boolean;
  readonly serverVersion: { readonly name: string; readonly version: string };
  /** `legacy` (2025-11-25, `initialize`) or `modern` (2026-07-28). */
  readonly protocolEra: string;
  readonly negotiatedProtocolVersion: string;
}

const CONNECTED = 'Connection established with capabilities: ';

/**
 * The connections to the MCP server `server` that Claude Code logged, oldest first. It keeps a
 * JSON-lines log per project and server, `$XDG_CACHE_HOME/claude-cli-nodejs/<project>/mcp-logs-<server>/*.jsonl`,
 * with one `Connection established with capabilities: {...}` line per connection.
 */
export function claudeMcpConnections(cacheHome: string, server: string): ClaudeMcpConnection[] {
  const logs = path.join(cacheHome, 'claude-cli-nodejs');
  if (!existsSync(logs)) {
    return [];
  }
  return readdirSync(logs)
    .map((project) => path.join(logs, project, `mcp-logs-${server}`))
    .filter((dir) => existsSync(dir))
    .flatMap((dir) => readdirSync(dir).sort().map((file) => readFileSync(path.join(dir, file), 'utf8')))
    .flatMap((text) => text.split('\n').filter((line) => line.trim() !== ''))
    .map((line) => (JSON.parse(line) as { debug?: unknown }).debug)
    .filter((debug): debug is string => typeof debug === 'string' && debug.startsWith(CONNECTED))
    .map((debug) => JSON.parse(debug.slice(CONNECTED.length)) as ClaudeMcpConnection);
}
