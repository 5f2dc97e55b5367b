// THIRD-PARTY-NOTICES.txt for what the bundles carry: esbuild inlines our dependencies (the MCP
// SDK, ajv, zod, re2js, jsonc-parser, fast-uri, ...) into dist/*.js, and their licenses ask that
// their notices travel with them. Built from the bundles' own metafiles, so a package that is
// bundled is listed and one that is not is not: each package's name, version, license and the
// text of its license (and NOTICE) files, as the package ships them.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/** The package folder of a bundled input path (`node_modules/@scope/name/...` or `node_modules/name/...`). */
function packageRootOf(input) {
  const parts = input.split(/[\\/]/);
  const last = parts.lastIndexOf('node_modules');
  if (last === -1) {
    return undefined;
  }
  const scoped = parts[last + 1]?.startsWith('@');
  return parts.slice(0, last + (scoped ? 3 : 2)).join('/');
}

/**
 * Packages a bundled file carries inside itself: a package built with its own bundler (the MCP
 * SDK inlines content-type, for one) names their sources in the source map beside the file.
 * Only packages installed here can be named with their license; others are the package's own
 * sources (the SDK's core-internal).
 */
function packagesInsideOf(input) {
  const map = `${input}.map`;
  if (!existsSync(map)) {
    return [];
  }
  const { sources = [] } = JSON.parse(readFileSync(map, 'utf8'));
  // The paths are the package's build machine's (a pnpm store): the name is what counts, and its
  // license is read from the copy installed here.
  return sources
    .filter((source) => source.includes('node_modules'))
    .map((source) => packageNameIn(source.replace(/\\/g, '/').split('node_modules/').pop()))
    .filter((name) => name !== undefined)
    .map((name) => `node_modules/${name}`)
    .filter((root) => existsSync(path.join(root, 'package.json')));
}

/** `@scope/name` or `name` at the start of a path inside node_modules. */
function packageNameIn(tail) {
  return /^((?:@[^/]+\/)?[^/.][^/]*)\//.exec(tail)?.[1];
}

/** The license and notice files a package ships, in a stable order. */
function noticeFilesOf(folder) {
  return readdirSync(folder)
    .filter((name) => /^(licen[cs]e|copying|notice)(\.|-|$)/i.test(name))
    .sort();
}

/** One package's section: heading, then each of its license files' text. */
function sectionOf(folder) {
  const manifest = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8'));
  const license = typeof manifest.license === 'string' ? manifest.license : (manifest.license?.type ?? 'see below');
  const files = noticeFilesOf(folder);
  if (files.length === 0) {
    throw new Error(`${manifest.name}@${manifest.version} is bundled but ships no LICENSE file: add its license text to scripts/third-party-notices.mjs`);
  }
  const texts = files.map((file) => readFileSync(path.join(folder, file), 'utf8').trim());
  return { name: manifest.name, key: `${manifest.name}@${manifest.version}`, text: [`${manifest.name} ${manifest.version} (${license})\n${'-'.repeat(72)}`, ...texts].join('\n\n') };
}

/** The package whose prebuilt programs are copied beside the bundles (esbuild.mjs copySandboxVendor). */
const SANDBOX_RUNTIME = '@anthropic-ai/sandbox-runtime';

/** What dist/vendor/ holds besides the bundles, and whose it is. */
const VENDORED_BINARIES = [
  `Programs in dist/vendor/ (copied from ${SANDBOX_RUNTIME}, whose license is below)`,
  '-'.repeat(72),
  'vendor/seccomp/{x64,arm64}/apply-seccomp: built by the sandbox runtime from its vendor/seccomp-src',
  '(https://github.com/anthropics/sandbox-runtime), statically linked with the GNU C Library',
  '(LGPL-2.1-or-later; source at https://www.gnu.org/software/libc/).',
  'vendor/java-proxy-agent/srt-proxy-agent.jar: built by the sandbox runtime from its own sources.',
].join('\n');

/** Writes the notices of every package any of the `metafiles` bundled; returns their names. */
export function writeThirdPartyNotices(metafiles, outFile) {
  const roots = new Set();
  for (const metafile of metafiles) {
    for (const input of Object.keys(metafile.inputs)) {
      const root = packageRootOf(input);
      if (root !== undefined && existsSync(path.join(root, 'package.json'))) {
        roots.add(root);
        packagesInsideOf(input).forEach((inside) => roots.add(inside));
      }
    }
  }
  const sections = [...roots].map(sectionOf).sort((a, b) => a.name.localeCompare(b.name));
  // One section per package version: two versions of a package can be bundled (the sandbox runtime has its own zod).
  const unique = sections.filter((section, index) => sections.findIndex((other) => other.key === section.key) === index);
  const heading = [
    'Third-party notices',
    '',
    'Workspace Tools bundles the following packages into its dist/*.js and dist/*.mjs files. Each is',
    'listed with its version and license, followed by the license text it ships.',
  ].join('\n');
  const vendored = unique.some((section) => section.name === SANDBOX_RUNTIME) ? [VENDORED_BINARIES] : [];
  writeFileSync(outFile, `${[heading, ...vendored, ...unique.map((section) => section.text)].join('\n\n\n')}\n`);
  return unique.map((section) => section.name);
}
