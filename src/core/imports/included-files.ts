/**
 * The files an importer's task file pulls in, which decide what its tasks run as much as the file
 * itself: the files a Makefile `include`s (`-include`, `sinclude`), and the files a justfile
 * `import`s or loads as a `mod`, each followed into its own includes. They are read as import
 * sources (import-source.ts), so the approval of the plugin file covers them, a change puts its
 * tools back to waiting, and the watch sees them. What cannot be covered is said, not guessed:
 * an include computed by make (a variable, a wildcard, `$(shell ...)`) is named as not covered,
 * and so is one outside the workspace folder or one that cannot be read.
 */
import * as path from 'node:path';
import type { ImportSource } from './imported-tool';
import { readImportSource } from './import-source';
import type { WorkspaceFolder } from '../types';

/** What the includes of one task file came to. */
export interface IncludedFiles {
  /** Each included file read (or absent), relative to the folder with `/`. */
  readonly sources: readonly ImportSource[];
  /** Each include approval does not cover, and why, in words. */
  readonly notCovered: readonly string[];
}

/** How deep includes are followed, and how many files at most (a loop of includes ends here too). */
const MAX_DEPTH = 8;
const MAX_FILES = 64;

/** The words of a makefile's include lines: literal file names, and the computed ones. */
export function makeIncludeWords(text: string): { readonly literal: string[]; readonly computed: string[] } {
  const literal: string[] = [];
  const computed: string[] = [];
  for (const line of text.replace(/\\\r?\n/g, ' ').split(/\r?\n/)) {
    const match = /^ *(?:-include|sinclude|include)\s+(.*)$/.exec(line);
    for (const word of (match?.[1] ?? '').replace(/#.*$/, '').split(/\s+/).filter((each) => each !== '')) {
      (/[$*?[]/.test(word) ? computed : literal).push(word);
    }
  }
  return { literal, computed };
}

/** The files a justfile names by `import` and `mod` (relative to its own directory; a mod's candidates). */
export function justIncludeWords(text: string): string[] {
  const names: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const imported = /^import\??\s+(['"])(.*)\1\s*(#.*)?$/.exec(line);
    if (imported !== null) {
      names.push(imported[2] ?? '');
      continue;
    }
    const mod = /^mod\??\s+([A-Za-z_][A-Za-z0-9_-]*)(?:\s+(['"])(.*)\2)?\s*(#.*)?$/.exec(line);
    if (mod !== null) {
      const given = mod[3];
      const base = given ?? (mod[1] ?? '');
      // just reads the file given, or NAME.just, or in the directory mod.just or a justfile.
      const inDirectory = [`${base}/mod.just`, `${base}/justfile`, `${base}/Justfile`, `${base}/.justfile`];
      names.push(...(given === undefined ? [`${base}.just`, ...inDirectory] : given.endsWith('.just') || given.endsWith('justfile') ? [given] : inDirectory));
    }
  }
  return names;
}

/**
 * Follows the includes of `file` (relative to the folder) whose text is `text`: `wordsOf` gives
 * the names each file includes (relative to `baseOf` that file) and the computed ones.
 */
export async function followIncludes(
  folder: WorkspaceFolder,
  file: string,
  text: string,
  wordsOf: (text: string) => { readonly literal: readonly string[]; readonly computed: readonly string[] },
  baseOf: (file: string) => string,
): Promise<IncludedFiles> {
  const sources: ImportSource[] = [];
  const notCovered: string[] = [];
  const seen = new Set([file]);
  const queue: Array<{ readonly file: string; readonly text: string; readonly depth: number }> = [{ file, text, depth: 0 }];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const words = wordsOf(next.text);
    notCovered.push(...words.computed.map((word) => `${word}, included by ${next.file}: its name is computed when the task runs`));
    for (const word of words.literal) {
      const name = insideName(folder, baseOf(next.file), word);
      if (name === undefined) {
        notCovered.push(`${word}, included by ${next.file}: it is outside the workspace folder`);
        continue;
      }
      if (seen.has(name) || seen.size >= MAX_FILES) {
        continue;
      }
      seen.add(name);
      const read = await readImportSource(folder, name);
      if ('problem' in read) {
        notCovered.push(`${word}, included by ${next.file}: ${read.problem}`);
      } else {
        sources.push({ path: name, content: 'text' in read ? read.text : null });
        if ('text' in read && next.depth + 1 < MAX_DEPTH) {
          queue.push({ file: name, text: read.text, depth: next.depth + 1 });
        }
      }
    }
  }
  return { sources, notCovered };
}

/** `word` (relative to `base`, itself relative to the folder) as a folder-relative `/` path, or undefined outside it. */
function insideName(folder: WorkspaceFolder, base: string, word: string): string | undefined {
  const relative = path.relative(folder.path, path.resolve(folder.path, base, word));
  if (relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
    return undefined;
  }
  return relative.split(path.sep).join('/');
}

/** A makefile's includes, followed (make reads them relative to its working directory, the folder). */
export function makeIncludes(folder: WorkspaceFolder, file: string, text: string): Promise<IncludedFiles> {
  return followIncludes(folder, file, text, makeIncludeWords, () => '.');
}

/** A justfile's imports and modules, followed (each relative to the file that names it). */
export function justIncludes(folder: WorkspaceFolder, file: string, text: string): Promise<IncludedFiles> {
  return followIncludes(folder, file, text, (each) => ({ literal: justIncludeWords(each), computed: [] }), (name) => path.posix.dirname(name));
}
