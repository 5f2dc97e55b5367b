/**
 * Real git repositories and plain directories in temp dirs, for tests of anything that runs git.
 * Every helper returns a `cleanup` to call in `after`/`finally`.
 */
import { execFileSync } from 'node:child_process';
import { after, before } from 'node:test';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ExecutionLimits, ToolRunContext, WorkspaceFolder } from '../../../src/core/types';
import { DEFAULT_LIMITS } from '../../../src/core/types';

/** A temp directory (realpath'd, so paths compare equal on macOS too). */
export interface TempDir {
  readonly path: string;
  /** Writes a file (parents created) relative to the directory. */
  write(relative: string, content: string): void;
  cleanup(): void;
}

/** A temp git repository; `git` runs git in it and returns stdout. */
export interface TempGitRepo extends TempDir {
  git(...args: string[]): string;
  commit(message: string, files: Readonly<Record<string, string>>): void;
}

/** Environment that makes commits reproducible and keeps the user's git config out. */
const GIT_TEST_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: os.devNull,
  GIT_AUTHOR_NAME: 'Ada Tester',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Ada Tester',
  GIT_COMMITTER_EMAIL: 'ada@example.com',
  GIT_AUTHOR_DATE: '2024-05-01T12:00:00Z',
  GIT_COMMITTER_DATE: '2024-05-01T12:00:00Z',
};

/** An empty temp directory. */
export function makeTempDir(prefix = 'wt-dir-'): TempDir {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  return {
    path: dir,
    write: (relative, content) => writeFile(dir, relative, content),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** An empty git repository on branch `main` with a local user. */
export function makeGitRepo(prefix = 'wt-git-'): TempGitRepo {
  const dir = makeTempDir(prefix);
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: dir.path, env: GIT_TEST_ENV, encoding: 'utf8', stdio: 'pipe' });
  git('-c', 'init.defaultBranch=main', 'init', '-q');
  git('config', 'user.name', 'Ada Tester');
  git('config', 'user.email', 'ada@example.com');
  git('config', 'commit.gpgsign', 'false');
  return {
    ...dir,
    git,
    commit(message, files) {
      for (const [relative, content] of Object.entries(files)) {
        dir.write(relative, content);
      }
      git('add', '--', ...Object.keys(files));
      git('commit', '-q', '-m', message);
    },
  };
}

/**
 * The repository most tests want, with one file in every state:
 * - commits "Initial commit" then "Add feature module" (newest)
 * - `src/app.ts` modified, not staged
 * - `src/util.ts` modified and staged
 * - `notes.txt` untracked
 * - `debug.log` and `build/out.js` ignored by .gitignore
 */
export function makeFixtureRepo(): TempGitRepo {
  const repo = makeGitRepo();
  repo.commit('Initial commit', {
    '.gitignore': '*.log\nbuild/\n',
    'README.md': '# Fixture\n',
    'src/app.ts': 'export const app = "hello world";\n',
    'src/util.ts': 'export function util(): number {\n  return 1;\n}\n',
  });
  repo.commit('Add feature module', { 'src/feature.ts': 'export const FEATURE_FLAG = true;\n' });
  repo.write('src/app.ts', 'export const app = "hello changed world";\n');
  repo.write('src/util.ts', 'export function util(): number {\n  return 2;\n}\n');
  repo.git('add', '--', 'src/util.ts');
  repo.write('notes.txt', 'untracked notes: hello\n');
  repo.write('debug.log', 'ignored hello\n');
  repo.write('build/out.js', 'ignored build output hello\n');
  return repo;
}

/** A run context over the given folders with real limits and a live signal. */
export function toolContext(
  folders: readonly WorkspaceFolder[],
  overrides: { limits?: Partial<ExecutionLimits>; signal?: AbortSignal; env?: Readonly<Record<string, string>> } = {},
): ToolRunContext {
  const ignore = (): void => undefined;
  return {
    folders,
    signal: overrides.signal ?? new AbortController().signal,
    limits: { ...DEFAULT_LIMITS, ...overrides.limits },
    logger: { trace: ignore, debug: ignore, info: ignore, warn: ignore, error: ignore },
    env: overrides.env === undefined ? process.env : { ...process.env, ...overrides.env },
  };
}

/** A workspace folder named after the directory's base name. */
export function folderOf(dir: TempDir, name = path.basename(dir.path)): WorkspaceFolder {
  return { name, path: dir.path };
}

function writeFile(root: string, relative: string, content: string): void {
  const full = path.join(root, relative);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, content);
}

/**
 * For one describe block: a fixture repository and an empty directory, made before its tests
 * and removed after them; `receive` gets them when they exist.
 */
export function withFixtureRepos(receive: (made: { repo: TempGitRepo; plain: TempDir }) => void): void {
  let made: { repo: TempGitRepo; plain: TempDir } | undefined;
  before(() => {
    made = { repo: makeFixtureRepo(), plain: makeTempDir() };
    receive(made);
  });
  after(() => {
    made?.repo.cleanup();
    made?.plain.cleanup();
  });
}
