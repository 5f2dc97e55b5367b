/**
 * The configuration in the workspace that changes which program a package manager runs a script
 * with: `.npmrc` (`script-shell`, `node-options`), `.yarnrc` and `.yarnrc.yml` (`yarn-path`,
 * `yarnPath`: the yarn that runs), `.pnpmfile.cjs` (code pnpm loads), `bunfig.toml` (preloads,
 * the shell). Each is an import source of the npm-scripts importer (absent ones too: creating
 * one changes what runs), so approval covers it; a program it names inside the workspace (a
 * `script-shell=./evil.sh`, a `yarnPath`) is a program file of every script tool. The user's
 * and the system's configuration (~/.npmrc, a global npmrc) are outside the workspace and not
 * covered.
 */
import * as path from 'node:path';
import type { WorkspaceFolder } from '../types';
import { workspaceProgramFiles } from '../handlers/shell/program-words';
import type { ImportSource } from './imported-tool';
import { readImportSource } from './import-source';

/** The configuration files of npm, yarn, pnpm and bun in the package's folder. */
export const MANAGER_CONFIG_FILES = ['.npmrc', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs', 'bunfig.toml'] as const;

/** What the configuration came to. */
export interface ManagerConfig {
  readonly sources: readonly ImportSource[];
  /** Programs in the workspace the configuration names (relative to the folder, `/`). */
  readonly programFiles: readonly string[];
  /** Configuration files approval cannot cover, and why. */
  readonly notCovered: readonly string[];
}

/** `script-shell = x`, `yarn-path "x"`, `yarnPath: x`: the program each names. */
const PROGRAM_SETTINGS = /^\s*(?:script-shell\s*=|yarn-path\s|yarnPath\s*:)\s*["']?([^"'\s#;]+)["']?/gm;
/** `node-options = --require ./x.js`: modules every node the scripts start preloads. */
const NODE_OPTIONS = /^\s*node-options\s*=\s*(.*)$/gm;

/** Reads the configuration files beside package.json, in `dir` of the folder ('' for the folder itself, else `a/b/`). */
export async function managerConfig(folder: WorkspaceFolder, dir = ''): Promise<ManagerConfig> {
  const cwd = path.join(folder.path, dir);
  const sources: ImportSource[] = [];
  const programs: string[] = [];
  const notCovered: string[] = [];
  for (const name of MANAGER_CONFIG_FILES) {
    const file = `${dir}${name}`;
    const read = await readImportSource(folder, file);
    if ('problem' in read) {
      notCovered.push(`${file}: ${read.problem}`);
      continue;
    }
    const text = 'text' in read ? read.text : null;
    sources.push({ path: file, content: text });
    for (const match of text?.matchAll(PROGRAM_SETTINGS) ?? []) {
      programs.push(...workspaceProgramFiles({ command: [match[1] ?? ''], shell: 'sh' }, folder.path, cwd));
    }
    for (const match of text?.matchAll(NODE_OPTIONS) ?? []) {
      programs.push(...workspaceProgramFiles({ command: ['node', ...(match[1] ?? '').trim().split(/\s+/)], shell: 'sh' }, folder.path, cwd));
    }
  }
  return { sources, programFiles: [...new Set(programs)], notCovered };
}
