/**
 * What a Windows batch shim of a Node program runs, found without running it. npm, pnpm and yarn
 * are `.cmd` files there (Node's installer copies npm's own `npm.cmd`; `npm install -g` writes
 * one with cmd-shim; `corepack enable` with its own cmd-shim), each of which starts node with a
 * package's JavaScript entry. A batch file cannot take input values safely (CVE-2024-27980), but
 * node with that entry takes them as plain argv. The shim is only read for the paths it names; a
 * path counts when the package it lies in declares it, in its package.json `bin`, as the entry of
 * the command the shim is named after. So what runs is the package's declared entry, confirmed by
 * the shim, never a guess from the batch file's logic (which is not evaluated).
 */
import { readFileSync, statSync } from 'node:fs';
import type { ProgramLookupDeps } from './program-lookup';
import { resolveProgram } from './program-lookup';

/** What the shim runs, or why that is not known (with every place looked at). */
export type ShimTarget =
  /** node (beside the shim, else on PATH) with this JavaScript entry. */
  | { readonly kind: 'node'; readonly node: string; readonly entry: string }
  /** A program the package ships as the command's entry (pnpm's `pnpm.exe`, bun's `bun.exe`). */
  | { readonly kind: 'executable'; readonly file: string }
  | { readonly kind: 'unknown'; readonly reason: string };

/** The look-up's view of the file system (default the real one), replaceable so Windows layouts test on Linux. */
export interface ShimFiles {
  /** True when `file` is a regular file. */
  readonly isFile?: (file: string) => boolean;
  /** A regular file's text when it is at most `maxBytes`, else undefined. */
  readonly readText?: (file: string, maxBytes: number) => string | undefined;
}

/** Everything the look-up needs: the platform, PATH, and the file system. */
export interface ShimLookupDeps extends ProgramLookupDeps, ShimFiles {}

/** cmd-shim's and Node's shims are under 2 KB: anything far larger is not one. */
const MAX_SHIM_BYTES = 64 * 1024;
/** Also the most of an entry read for its shebang line (a larger one is read as having none). */
const MAX_MANIFEST_BYTES = 1024 * 1024;
/** How far above an entry its package.json may be (`bin/x.js`, `dist/x.js`, `lib/cli/x.js`). */
const MAX_PACKAGE_DEPTH = 4;

function isRegularFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function readSmallText(file: string, maxBytes: number): string | undefined {
  try {
    const info = statSync(file);
    return info.isFile() && info.size <= maxBytes ? readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

/** What the batch file `shim` (`<dir>\npm.cmd`) runs for its command (`npm`). */
export function shimTarget(shim: string, deps: ShimLookupDeps): ShimTarget {
  const rules = deps.platform.path;
  const readText = deps.readText ?? readSmallText;
  const command = rules.basename(shim, rules.extname(shim));
  const text = readText(shim, MAX_SHIM_BYTES);
  if (text === undefined) {
    return { kind: 'unknown', reason: `${shim} could not be read as a batch file of at most ${MAX_SHIM_BYTES} bytes` };
  }
  const tried: string[] = [];
  for (const candidate of pathsNamedIn(text, rules.dirname(shim), deps)) {
    const declared = declaredEntry(candidate, command, deps, readText);
    if (typeof declared !== 'string') {
      tried.push(`${candidate} (${declared.why})`);
      continue;
    }
    return runnerOf(declared, shim, deps, readText);
  }
  const looked = tried.length === 0 ? 'it names no file relative to itself (%~dp0) or by an absolute path' : `it names ${tried.join('; ')}`;
  return { kind: 'unknown', reason: `no package declares a file ${shim} names as the entry of "${command}" in its package.json "bin": ${looked}` };
}

/**
 * The files the shim names, in order: relative to its own folder (`%~dp0\x`, cmd-shim's
 * `%dp0%\x`) or absolute in quotes (cmd-shim's form for a target on another drive).
 */
function pathsNamedIn(text: string, folder: string, deps: ShimLookupDeps): string[] {
  const rules = deps.platform.path;
  const relative = [...text.matchAll(/%(?:~dp0|dp0%)\\?([^"%\r\n]+)/gi)].map((match) => rules.resolve(folder, (match[1] ?? '').trim()));
  const absolute = [...text.matchAll(/"([A-Za-z]:\\[^"%\r\n]+)"/g)].map((match) => rules.normalize(match[1] ?? ''));
  const seen = new Set<string>();
  return [...relative, ...absolute].filter((file) => {
    const key = file.toLowerCase();
    const fresh = file !== rules.resolve(folder) && !seen.has(key);
    seen.add(key);
    return fresh;
  });
}

/**
 * `candidate` when the nearest package.json above it with a `bin` declares it as `command`'s
 * entry; otherwise why not.
 */
function declaredEntry(candidate: string, command: string, deps: ShimLookupDeps, readText: NonNullable<ShimLookupDeps['readText']>): string | { readonly why: string } {
  const rules = deps.platform.path;
  if (!(deps.isFile ?? isRegularFile)(candidate)) {
    return { why: 'not a file' };
  }
  let folder = rules.dirname(candidate);
  for (let depth = 0; depth <= MAX_PACKAGE_DEPTH && rules.basename(folder).toLowerCase() !== 'node_modules'; depth += 1) {
    const manifestFile = rules.join(folder, 'package.json');
    const manifest = parseManifest(readText(manifestFile, MAX_MANIFEST_BYTES));
    if (manifest?.bin !== undefined) {
      const entry = binEntry(manifest, command);
      if (entry === undefined) {
        return { why: `${manifestFile} has no "bin" entry "${command}"` };
      }
      const declared = rules.resolve(folder, entry);
      return declared.toLowerCase() === candidate.toLowerCase() ? declared : { why: `${manifestFile} declares "${command}" as ${entry}, not this file` };
    }
    const parent = rules.dirname(folder);
    if (parent === folder) {
      break;
    }
    folder = parent;
  }
  return { why: 'no package.json with "bin" above it' };
}

interface Manifest {
  readonly name?: unknown;
  readonly bin?: unknown;
}

function parseManifest(text: string | undefined): Manifest | undefined {
  try {
    const value: unknown = text === undefined ? undefined : JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

/** `bin` as an object (a key per command, any case as Windows names are), or a string for the package's own name. */
function binEntry(manifest: Manifest, command: string): string | undefined {
  const { bin, name } = manifest;
  if (typeof bin === 'string') {
    const own = typeof name === 'string' ? name.split('/').pop() : undefined;
    return own?.toLowerCase() === command.toLowerCase() ? bin : undefined;
  }
  if (typeof bin !== 'object' || bin === null) {
    return undefined;
  }
  const key = Object.keys(bin).find((candidate) => candidate.toLowerCase() === command.toLowerCase());
  const entry = key === undefined ? undefined : (bin as Record<string, unknown>)[key];
  return typeof entry === 'string' && entry !== '' ? entry : undefined;
}

/** How the declared entry runs: an .exe itself; JavaScript (by extension or a node shebang) by node. */
function runnerOf(entry: string, shim: string, deps: ShimLookupDeps, readText: NonNullable<ShimLookupDeps['readText']>): ShimTarget {
  const rules = deps.platform.path;
  const extension = rules.extname(entry).toLowerCase();
  if (extension === '.exe' || extension === '.com') {
    return { kind: 'executable', file: entry };
  }
  const firstLine = /^[^\r\n]*/.exec(readText(entry, MAX_MANIFEST_BYTES) ?? '')?.[0] ?? '';
  const javascript = ['.js', '.cjs', '.mjs'].includes(extension) ? !firstLine.startsWith('#!') || /\bnode\b/.test(firstLine) : /^#!.*\bnode\b/.test(firstLine);
  if (!javascript) {
    return { kind: 'unknown', reason: `${entry}, the entry ${shim} runs, is neither a program (.exe) nor JavaScript run by node` };
  }
  // As the shims themselves choose: node.exe beside the shim, else node on PATH.
  const beside = rules.join(rules.dirname(shim), 'node.exe');
  if ((deps.isFile ?? isRegularFile)(beside)) {
    return { kind: 'node', node: beside, entry };
  }
  const node = resolveProgram('node', deps);
  if (node.kind === 'executable') {
    return { kind: 'node', node: node.file, entry };
  }
  const found = node.kind === 'missing' ? 'not found on PATH' : `on PATH it is ${node.file}, not a program`;
  return { kind: 'unknown', reason: `${entry} is JavaScript, but node.exe is neither beside ${shim} (${beside}) nor on PATH (${found})` };
}
