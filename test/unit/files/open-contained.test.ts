/**
 * files/open-contained on real directories, with a real swap between its steps: after the path
 * was checked, a folder on the way is renamed away and a symbolic link to an outside folder put in
 * its place (and, for the portable check, put back after the open). Whatever the moment, the
 * result is the inside file or a refusal, never an outside byte; on Linux through the kernel's
 * path of the descriptor, and elsewhere (forced here by a handlePath that cannot say) through
 * the real path and the device and inode compared with the handle's.
 */
import assert from 'node:assert/strict';
import { linkSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import type { HandlePath, OpenContainedDeps, OpenStep } from '../../../src/core/files/open-contained';
import { hasGitSegment, hostOpenDeps, kernelHandlePath, openContained, readContainedBytes } from '../../../src/core/files/open-contained';
import type { FileAccess } from '../../../src/core/platform/file-access';
import { DirectWhileFast, POOLED_ACCESS } from '../../../src/core/platform/file-access';

const POSIX = process.platform !== 'win32';
const INSIDE = 'inside text\n';
const OUTSIDE = 'OUTSIDE-SECRET\n';

const roots: string[] = [];
after(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

/** A workspace with docs/page.md, and beside it an outside folder with a page.md of its own. */
function layout(): { workspace: string; outside: string; docs: string } {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wt-open-contained-')));
  roots.push(root);
  const workspace = path.join(root, 'workspace');
  const outside = path.join(root, 'outside');
  mkdirSync(path.join(workspace, 'docs'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(workspace, 'docs', 'page.md'), INSIDE);
  writeFileSync(path.join(outside, 'page.md'), OUTSIDE);
  return { workspace, outside, docs: path.join(workspace, 'docs') };
}

/** docs is renamed away and a link to the outside folder takes its name. */
function swapOut(docs: string, outside: string): void {
  renameSync(docs, `${docs}.real`);
  symlinkSync(outside, docs);
}

/** The link goes, the real docs comes back. */
function swapBack(docs: string): void {
  rmSync(docs);
  renameSync(`${docs}.real`, docs);
}

/** Host deps that run `swaps[step]` when openContained reaches that step; `handlePath` and the file access as given. */
function swapping(swaps: Partial<Record<OpenStep, () => void>>, handlePath: HandlePath, access: FileAccess): OpenContainedDeps {
  return { ...hostOpenDeps(() => access), handlePath, between: async (step) => swaps[step]?.() };
}

/** Both ways the read path asks the file system (files/file-access.ts): each must refuse every swap. */
const ACCESSES = [
  ['direct calls', new DirectWhileFast().direct],
  ['the thread pool', POOLED_ACCESS],
] as const;

/** A handlePath that cannot say, as on macOS and Windows: the portable check runs. */
const portable: HandlePath = () => undefined;

async function readWith(workspace: string, deps: OpenContainedDeps, within?: string[]): Promise<string> {
  const bytes = await readContainedBytes({ basePath: workspace, path: 'docs/page.md', ...(within === undefined ? {} : { within }) }, 1024, deps);
  return bytes.toString('utf8');
}

describe('openContained: containment decided on the file opened', () => {
  test('an inside file is opened and read; its real path is given', async () => {
    const { workspace } = layout();
    const opened = await openContained({ basePath: workspace, path: 'docs/page.md' });
    try {
      assert.equal(opened.realPath, path.join(workspace, 'docs', 'page.md'));
      assert.ok(opened.info.isFile());
    } finally {
      await opened.handle.close();
    }
    assert.equal(await readWith(workspace, hostOpenDeps()), INSIDE);
  });

  test('Linux: the kernel names the file behind the descriptor', { skip: process.platform !== 'linux' }, async () => {
    const { workspace } = layout();
    const opened = await openContained({ basePath: workspace, path: 'docs/page.md' });
    try {
      assert.equal(kernelHandlePath(opened.handle), path.join(workspace, 'docs', 'page.md'));
    } finally {
      await opened.handle.close();
    }
  });

  const checks = [
    ['the kernel path of the handle (Linux)', kernelHandlePath],
    ['the portable check (real path, device and inode)', portable],
  ] as const;
  for (const [label, handlePath, access] of ACCESSES.flatMap(([how, access]) => checks.map(([check, path]) => [`${how}, ${check}`, path, access] as const))) {
    test(`${label}: a folder swapped for a link out after the check is refused, never read`, { skip: !POSIX }, async () => {
      const { workspace, outside, docs } = layout();
      const deps = swapping({ resolved: () => swapOut(docs, outside) }, handlePath, access);
      await assert.rejects(readWith(workspace, deps), /outside the allowed directory|changed while it was being opened/);
    });

    test(`${label}: swapped out before the open and back right after it: refused (the handle is the outside file)`, { skip: !POSIX }, async () => {
      const { workspace, outside, docs } = layout();
      const deps = swapping({ resolved: () => swapOut(docs, outside), opened: () => swapBack(docs) }, handlePath, access);
      await assert.rejects(readWith(workspace, deps), /outside the allowed directory|changed while it was being opened/);
    });

    // Through the pool the early read overlaps the checks (what it read is dropped on a refusal);
    // with direct calls nothing is read before they pass.
    if (access.direct) {test(`${label}: a file swapped in before the open is refused before any byte of it is read early`, { skip: !POSIX }, async () => {
      const { workspace, outside, docs } = layout();
      let readEarly = 0;
      const early = async (): Promise<void> => {
        readEarly += 1;
      };
      const deps = swapping({ resolved: () => swapOut(docs, outside) }, handlePath, access);
      await assert.rejects(openContained({ basePath: workspace, path: 'docs/page.md' }, { deps, early }), /outside the allowed directory|changed while it was being opened/);
      assert.equal(readEarly, 0);
    });}

    test(`${label}: swapped out only after the open: the inside file, already open, is read`, { skip: !POSIX }, async () => {
      const { workspace, outside, docs } = layout();
      const deps = swapping({ opened: () => swapOut(docs, outside) }, handlePath, access);
      // The kernel's path follows the open file into docs.real, still inside; the portable check
      // finds another file at the path now and refuses. Either way no outside byte.
      const read = await readWith(workspace, deps).catch((error: unknown) => String(error));
      assert.doesNotMatch(read, /OUTSIDE-SECRET/);
      assert.match(read, /inside text|changed while it was being opened/);
    });

    test(`${label}: a base resolved earlier (a tool's basePath) swapped for a link out is refused through "within"`, { skip: !POSIX }, async () => {
      const { workspace, outside, docs } = layout();
      const deps = swapping({}, handlePath, access);
      // The base was resolved inside the workspace (docs); then it became a link out.
      swapOut(docs, outside);
      await assert.rejects(readContainedBytes({ basePath: docs, path: 'page.md', within: [workspace] }, 1024, deps), /outside the allowed directory/);
    });
  }

  test('a .git segment is refused when asked, lexically and by the real path a link leads to', { skip: !POSIX }, async () => {
    const { workspace } = layout();
    mkdirSync(path.join(workspace, '.git'));
    writeFileSync(path.join(workspace, '.git', 'config'), '[remote "origin"]\n\turl = https://user:TOKEN@example.com/r.git\n');
    symlinkSync(path.join(workspace, '.git', 'config'), path.join(workspace, 'docs', 'config-link'));
    for (const requested of ['.git/config', 'docs/../.git/config', '.GIT/config', 'docs/config-link']) {
      await assert.rejects(readContainedBytes({ basePath: workspace, path: requested, refuseGitDirectory: true }, 1024), /lies inside \.git, which is never served/, requested);
    }
    // Without the rule (file-reader), the file is the workspace's own.
    assert.match((await readContainedBytes({ basePath: workspace, path: 'docs/config-link' }, 1024)).toString(), /TOKEN/);
    assert.equal(hasGitSegment('a/.git/b'), true);
    assert.equal(hasGitSegment('a\\.Git\\b'), true);
    assert.equal(hasGitSegment('a/.github/b.yml'), false);
    assert.equal(hasGitSegment('.gitignore'), false);
  });

  test('a file with a second hard link is refused when asked (its other name may be outside), read otherwise', { skip: !POSIX }, async () => {
    const { workspace, outside } = layout();
    linkSync(path.join(outside, 'page.md'), path.join(workspace, 'docs', 'linked.md'));
    await assert.rejects(readContainedBytes({ basePath: workspace, path: 'docs/linked.md', refuseHardLinks: true }, 1024), /has 2 hard links; a file with more than one is not served here/);
    assert.equal((await readContainedBytes({ basePath: workspace, path: 'docs/page.md', refuseHardLinks: true }, 1024)).toString(), INSIDE);
    assert.equal((await readContainedBytes({ basePath: workspace, path: 'docs/linked.md' }, 1024)).toString(), OUTSIDE);
  });

  test('the path checks still come first: ../, an absolute outside path and a link out are refused before any open', { skip: !POSIX }, async () => {
    const { workspace, outside } = layout();
    symlinkSync(outside, path.join(workspace, 'out'));
    let opened = 0;
    const deps: OpenContainedDeps = { ...hostOpenDeps(), between: async (step) => void (step === 'resolved' && (opened += 1)) };
    for (const requested of ['../outside/page.md', path.join(outside, 'page.md'), 'out/page.md']) {
      await assert.rejects(readContainedBytes({ basePath: workspace, path: requested }, 1024, deps), /outside the allowed directory/, requested);
    }
    assert.equal(opened, 0);
  });
});
