/**
 * The real Claude Code CLI (`@anthropic-ai/claude-code`, a native binary in a per-platform npm
 * package), installed from the npm registry into a cache outside the clone the first time, like
 * the e2e suite's code-server: 370 MB is too much to put into every `npm ci`. Without an API key it
 * still adds MCP servers and health-checks them (`claude mcp list` starts each server and
 * completes the MCP handshake), which is what a user's first session does before any prompt.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { withoutNpmSettings } from './registry';

/** The version the tests pin. */
export const CLAUDE_CODE_VERSION = '2.1.328';

function cacheDir(): string {
  return path.join(process.env['WORKSPACE_TOOLS_TEST_CACHE'] ?? path.join(os.homedir(), '.cache', 'workspace-tools-test'), `claude-code-${CLAUDE_CODE_VERSION}`);
}

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
  const dir = cacheDir();
  const cached = binaryIn(dir);
  if (cached !== undefined) {
    return cached;
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`], { cwd: dir, env: withoutNpmSettings(), stdio: 'ignore' });
  const installed = binaryIn(dir);
  if (installed === undefined) {
    throw new Error(`npm installed @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} into ${dir}, but no claude binary for ${process.platform}-${process.arch} runs`);
  }
  return installed;
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
