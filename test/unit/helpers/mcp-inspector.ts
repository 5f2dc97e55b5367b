/**
 * The official MCP Inspector's command line (`@modelcontextprotocol/inspector`, `--cli` mode), the
 * reference client a server author checks a server with. It is installed from the npm registry
 * into a cache outside the clone the first time, like Claude Code (claude-code.ts), not as a
 * devDependency: it brings 120 packages and 110 MB (the web UI's Vite and React, the terminal
 * UI's Ink, a native keyring module, and its own pinned copy of the v2 SDK, 2.3.1 beside our
 * 2.4.0) that no other part of the project uses. Its whole dependency tree is pinned by the
 * lockfile in ./mcp-inspector/, and `npm ci` installs exactly that (scripts ignored: the
 * package's one postinstall does nothing when it is installed as a dependency).
 *
 * `--cli` runs one method per process: it starts the server, connects (on the protocol era asked
 * for: `legacy` is 2025-11-25 with `initialize`, `modern` is 2026-07-28), sends the method, prints
 * `{"result": ...}` with `--format json`, and ends the server. The methods it sends: tools/list,
 * tools/call (--tool-name, --tool-arg k=v), resources/list, resources/read (--uri),
 * resources/templates/list, prompts/list, prompts/get (--prompt-name, --prompt-args k=v),
 * completion/complete, logging/setLevel and more (see `--cli --help`).
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { withoutNpmSettings } from './registry';
import { cachedInstall, testCacheDir } from './test-cache';

/** The version the tests pin (./mcp-inspector/package.json, and its lockfile). */
export const INSPECTOR_VERSION = '2.12.0';

/** Where the pinned package.json and package-lock.json are (in the source tree: tsc does not copy them to out/). */
const PINNED = path.resolve(__dirname, '../../../../test/unit/helpers/mcp-inspector');

/** An install of the Inspector in the cache. */
export interface InspectorInstall {
  /** Its launcher script (the `mcp-inspector` bin), run with `node`. */
  readonly launcher: string;
  /** Node's compile cache for it (NODE_COMPILE_CACHE): its 900 KB CLI bundle is compiled once, not per call. */
  readonly compileCache: string;
}

/** The install in `dir`, if it is there and the pinned version. */
function installIn(dir: string): InspectorInstall | undefined {
  const root = path.join(dir, 'node_modules', '@modelcontextprotocol', 'inspector');
  const launcher = path.join(root, 'clients', 'launcher', 'build', 'index.js');
  if (!existsSync(launcher)) {
    return undefined;
  }
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version?: string };
  return version === INSPECTOR_VERSION ? { launcher, compileCache: path.join(dir, 'compile-cache') } : undefined;
}

/** The Inspector, installed into the cache (keyed by the lockfile's hash) when missing. */
export function inspectorInstall(): InspectorInstall {
  const lockfile = readFileSync(path.join(PINNED, 'package-lock.json'));
  const key = createHash('sha256').update(lockfile).digest('hex').slice(0, 12);
  return cachedInstall(testCacheDir(`mcp-inspector-${INSPECTOR_VERSION}-${key}`), installIn, (staging) => {
    copyFileSync(path.join(PINNED, 'package.json'), path.join(staging, 'package.json'));
    copyFileSync(path.join(PINNED, 'package-lock.json'), path.join(staging, 'package-lock.json'));
    execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: staging, env: withoutNpmSettings(), stdio: 'ignore', timeout: 600_000 });
  });
}

/** The protocol era the Inspector negotiates: `legacy` (2025-11-25, `initialize`) or `modern` (2026-07-28). */
export type InspectorEra = 'legacy' | 'modern';

/** The stdio server the Inspector starts, and what it runs with. */
export interface InspectorTarget {
  readonly command: string;
  readonly args: readonly string[];
  /** Passed with `-e`: the Inspector gives a stdio server only a few variables of its own (PATH, HOME, ...) and these. */
  readonly env: Readonly<Record<string, string>>;
  /** The Inspector's own home (it keeps a catalog and OAuth state under ~/.mcp-inspector). */
  readonly home: string;
}

const execFileAsync = promisify(execFile);

/**
 * Runs `mcp-inspector --cli` once against `target` on `era` with `--method method ...extra`, and
 * returns the `result` it printed. A failure (the Inspector prints a JSON error on stderr and
 * exits non-zero) is thrown with what it printed.
 */
export async function inspect(target: InspectorTarget, era: InspectorEra, method: string, extra: readonly string[] = []): Promise<Record<string, unknown>> {
  const envFlags = Object.entries(target.env).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
  const { launcher, compileCache } = inspectorInstall();
  const args = [launcher, '--cli', '--format', 'json', '--quiet', '--protocol-era', era, ...envFlags, target.command, ...target.args, '--method', method, ...extra];
  try {
    const { stdout } = await execFileAsync(process.execPath, args, {
      env: { ...withoutNpmSettings(), HOME: target.home, USERPROFILE: target.home, NODE_COMPILE_CACHE: compileCache },
      timeout: 60_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    const printed = JSON.parse(stdout) as { result?: Record<string, unknown> };
    if (printed.result === undefined) {
      throw new Error(`no result in what it printed: ${stdout}`);
    }
    return printed.result;
  } catch (error) {
    const { stderr = '', stdout = '' } = error as { stderr?: string; stdout?: string };
    // The server's own message, unescaped, so a test can match it as the user reads it.
    const said = printedErrorMessages(`${stdout}\n${stderr}`);
    throw new Error(`mcp-inspector --cli --protocol-era ${era} --method ${method} ${extra.join(' ')} failed: ${said.join(' | ')}\n${(error as Error).message}\n${stdout}${stderr}`);
  }
}

/** The `error.message` of each JSON line the Inspector printed (`{"error":{"message":...}}`). */
function printedErrorMessages(printed: string): string[] {
  return printed.split('\n').flatMap((line) => {
    try {
      const message = (JSON.parse(line) as { error?: { message?: unknown } }).error?.message;
      return typeof message === 'string' ? [message] : [];
    } catch {
      return [];
    }
  });
}
