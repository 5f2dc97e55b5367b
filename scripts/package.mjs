// npm run package: the two things users install, one version (package.json's) for both.
//  - workspace-tools.vsix: the extension for the Marketplace and Open VSX (vsce, no warning allowed).
//  - workspace-tools-mcp-<version>.tgz: the MCP server as the npm package `npx -y workspace-tools-mcp`
//    runs: its bin, everything bundled (no runtime dependency), its own README, the license, and
//    `mcpName` (server.json's name: the MCP Registry lists the package by it).
// Usage: node scripts/package.mjs [--vsix] [--npm] [--out DIR] [--no-build]
//   --vsix / --npm   only that one (default: both)
//   --out DIR        where they are written (default: the repository root)
//   --no-build       package dist/ as it is (the .vsix only; the npm package is always built apart,
//                    in a temp folder, so tests using dist/ meanwhile are not disturbed)
// Fails when vsce prints a warning, or the limits below are passed.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const root = path.resolve(new URL('..', import.meta.url).pathname);
const args = process.argv.slice(2);
const only = (flag) => args.includes(flag) || (!args.includes('--vsix') && !args.includes('--npm'));
const outIndex = args.indexOf('--out');
const out = path.resolve(outIndex === -1 ? root : args[outIndex + 1] ?? '');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

/**
 * The npm package's name, and the limits the issue set (the gallery and npx users feel both),
 * raised by issue 34 for the OS sandbox: its broker bundle (the sandbox runtime, ~0.65 MB
 * minified) and the runtime's seccomp loader for x64 and arm64 (0.75 + 0.6 MB, static binaries).
 */
export const NPM_NAME = 'workspace-tools-mcp';
const MAX_VSIX_BYTES = 2 * 1024 * 1024;
const MAX_NPM_UNPACKED_BYTES = 4 * 1024 * 1024;

const log = (message) => console.log(`[package] ${message}`);
const fail = (message) => {
  console.error(`[package] ${message}`);
  process.exit(1);
};
/** The environment without the outer npm's settings (npm run sets npm_config_*, which nested npm commands would take as theirs). */
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));

function build(outdir) {
  execFileSync(process.execPath, [path.join(root, 'esbuild.mjs'), '--production', '--outdir', outdir], { cwd: root, stdio: 'inherit' });
}

function packageVsix() {
  if (!args.includes('--no-build')) {
    build(path.join(root, 'dist'));
  }
  const vsix = path.join(out, 'workspace-tools.vsix');
  // No --no-rewrite-relative-links: vsce turns the README's relative links into the repository's
  // https URLs, the only image sources VS Code's extension Details page loads (its sanitizer keeps
  // http/https sources only, its CSP allows https: and data:).
  const vsce = spawnSync(process.execPath, [path.join(root, 'node_modules/@vscode/vsce/vsce'), 'package', '--no-dependencies', '-o', vsix], {
    cwd: root,
    encoding: 'utf8',
    env: { ...cleanEnv(), XDG_CACHE_HOME: process.env.XDG_CACHE_HOME ?? path.join(tmpdir(), 'workspace-tools-vsce-cache') },
  });
  const said = `${vsce.stdout}${vsce.stderr}`;
  if (vsce.status !== 0) {
    fail(`vsce package failed:\n${said}`);
  }
  if (/warning/i.test(said)) {
    fail(`vsce printed a warning (a gallery-ready package has none):\n${said}`);
  }
  const size = statSync(vsix).size;
  if (size >= MAX_VSIX_BYTES) {
    fail(`${vsix} is ${size} bytes: it must stay under 2 MB (${MAX_VSIX_BYTES})`);
  }
  log(`${path.relative(process.cwd(), vsix) || vsix}: ${(size / 1024).toFixed(0)} KiB`);
}

/**
 * The MCP Registry entry (server.json at the root): the registry lists the npm package only when
 * the published package.json's `mcpName` is the entry's `name`, and reads that from the tarball,
 * so a mismatch is found here, before a release, not by the registry after it.
 */
function registryEntry() {
  const server = JSON.parse(readFileSync(path.join(root, 'server.json'), 'utf8'));
  const npm = (server.packages ?? []).find((entry) => entry.registryType === 'npm');
  const mismatches = [
    server.version !== manifest.version && `server.json "version" is ${server.version}, package.json's is ${manifest.version}`,
    npm?.identifier !== NPM_NAME && `server.json's npm package is ${npm?.identifier}, not ${NPM_NAME}`,
    npm?.version !== manifest.version && `server.json's npm package version is ${npm?.version}, package.json's is ${manifest.version}`,
  ].filter(Boolean);
  if (mismatches.length > 0) {
    fail(`server.json does not describe this release: ${mismatches.join('; ')} (CONTRIBUTING.md, "Releasing")`);
  }
  return server;
}

/** The npm package's manifest: its own name and bin, the rest from the extension's package.json. */
function npmManifest() {
  return {
    name: NPM_NAME,
    version: manifest.version,
    mcpName: registryEntry().name,
    description: 'MCP server with git and workspace tools for AI agents, plus your team\'s own tools from .vscode/tools/*.json (shell, HTTP, file reads, sandboxed TypeScript), each run only once you have approved its exact content.',
    license: manifest.license,
    repository: manifest.repository,
    bugs: manifest.bugs,
    homepage: manifest.homepage,
    keywords: ['mcp', 'mcp-server', 'model-context-protocol', 'claude', 'claude-code', 'cursor', 'vscode', 'git', 'tools', 'agent'],
    bin: { [NPM_NAME]: 'dist/mcp-server.js' },
    files: [
      'dist/mcp-server.js',
      'dist/mcp-server-main.js',
      'dist/code-runner.js',
      'dist/re2js.js',
      'dist/plugin-file-validator.js',
      'dist/toml-patch.js',
      'dist/sandbox-broker.mjs',
      'dist/vendor/seccomp/x64/apply-seccomp',
      'dist/vendor/seccomp/arm64/apply-seccomp',
      'dist/vendor/java-proxy-agent/srt-proxy-agent.jar',
      'dist/THIRD-PARTY-NOTICES.txt',
    ],
    engines: { node: manifest.engines.node },
  };
}

function packageNpm() {
  const stage = mkdtempSync(path.join(tmpdir(), 'workspace-tools-mcp-'));
  try {
    build(path.join(stage, 'dist'));
    rmSync(path.join(stage, 'dist', 'extension.js'));
    writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(npmManifest(), null, 2)}\n`);
    copyFileSync(path.join(root, 'packages', NPM_NAME, 'README.md'), path.join(stage, 'README.md'));
    copyFileSync(path.join(root, 'LICENSE'), path.join(stage, 'LICENSE'));
    mkdirSync(out, { recursive: true });
    const packed = execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: stage, encoding: 'utf8', env: cleanEnv() });
    const [info] = JSON.parse(packed);
    if (info.unpackedSize >= MAX_NPM_UNPACKED_BYTES) {
      fail(`${info.filename} unpacks to ${info.unpackedSize} bytes: it must stay under 4 MiB (${MAX_NPM_UNPACKED_BYTES})`);
    }
    log(`${path.join(out, info.filename)}: ${(info.size / 1024).toFixed(0)} KiB, ${(info.unpackedSize / 1024).toFixed(0)} KiB unpacked, ${info.files.map((file) => file.path).join(', ')}`);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (only('--vsix')) {
  packageVsix();
}
if (only('--npm')) {
  packageNpm();
}
