/**
 * The README is a front page and `docs/` holds the reference (issue 35, item 15): the README stays
 * small and starts with the two commands, every relative link of the docs reaches a file and a
 * heading that exist (as GitHub makes a heading's anchor), and every page of `docs/` is linked
 * from the README, so nothing in the reference is unreachable from the Details page.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';

const ROOT = path.resolve(__dirname, '../../../..');
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

/** The reference pages: docs/*.md (docs/design/ holds design notes, not user docs). */
const DOCS_PAGES = readdirSync(path.join(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`)
  .sort();
/** Every Markdown file whose relative links are checked. */
const CHECKED = ['README.md', ...DOCS_PAGES, 'CONTRIBUTING.md', 'ARCHITECTURE.md', 'CHANGELOG.md'];
const README_MAX_BYTES = 30_000;

/** Each line of a Markdown text, and whether it is prose: outside fenced code blocks (fences may be indented in lists). */
function proseLines(text: string): { line: string; prose: boolean }[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return { line, prose: false };
    }
    return { line, prose: fence === undefined };
  });
}

/** A heading's anchor as GitHub makes it: the rendered text, lower case, punctuation dropped, spaces to dashes. */
function slug(heading: string): string {
  const rendered = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
  return rendered.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings, a repeated one suffixed -1, -2, … as GitHub does. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { line } of proseLines(read(file)).filter(({ prose }) => prose)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) {
      continue;
    }
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every link and picture target of a Markdown file's prose, with its line (inline code is not a link). */
function linksOf(file: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  proseLines(read(file)).forEach(({ line, prose }, index) => {
    if (!prose) {
      return;
    }
    const withoutCode = line.replace(/`[^`]*`/g, '``');
    for (const match of withoutCode.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      links.push({ target: match[1] ?? '', line: index + 1 });
    }
  });
  return links;
}

/** Where a relative link leads: the repository file (or folder) and the anchor, if any. */
function resolveLink(from: string, target: string): { file: string; anchor: string | undefined } {
  const [pathPart = '', anchor] = target.split('#', 2);
  const file = pathPart === '' ? from : path.posix.normalize(path.posix.join(path.posix.dirname(from), decodeURI(pathPart)));
  return { file, anchor: anchor === undefined || anchor === '' ? undefined : anchor };
}

/** What is wrong with one link, or undefined when it reaches its file and heading. */
function brokenLink(from: string, target: string): string | undefined {
  const { file, anchor } = resolveLink(from, target);
  if (file.startsWith('..') || !existsSync(path.join(ROOT, file))) {
    return `${file} does not exist`;
  }
  if (anchor !== undefined) {
    if (!file.endsWith('.md') || statSync(path.join(ROOT, file)).isDirectory()) {
      return `#${anchor} points into ${file}, which has no headings`;
    }
    if (!anchorsOf(file).has(anchor)) {
      return `${file} has no heading with the anchor #${anchor}`;
    }
  }
  return undefined;
}

const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target);

describe('the README is a front page and docs/ holds the reference', () => {
  test(`README.md is under ${README_MAX_BYTES} bytes`, () => {
    const size = Buffer.byteLength(read('README.md'));
    assert.ok(size < README_MAX_BYTES, `README.md is ${size} bytes: move reference text to a page of docs/`);
  });

  test('README.md starts with the two commands: set up and run the demo, set up and run every test', () => {
    const readme = read('README.md');
    const firstSection = readme.slice(0, readme.indexOf('\n## '));
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(firstSection)?.[1] ?? '';
    assert.match(firstBlock, /^npm ci && npm start\b/m, 'the first code block sets up and runs the main job');
    assert.match(firstBlock, /^npm ci && npm test\b/m, 'the first code block sets up and runs every test');
    // What `npm start` does without a desktop VS Code is said next to it (issue 35, item 8).
    for (const needle of ['code-server', 'Chromium', 'minutes', 'Linux', 'macOS', 'Windows']) {
      assert.ok(firstSection.includes(needle), `the README's opening says ${needle}`);
    }
  });

  test('docs/ has reference pages, and the checker finds headings and links as GitHub does', () => {
    assert.ok(DOCS_PAGES.length >= 10, DOCS_PAGES.join(', '));
    assert.equal(slug('Tasks the workspace already declares (`import`)'), 'tasks-the-workspace-already-declares-import');
    assert.equal(slug('What `npm start` and `npm test` need'), 'what-npm-start-and-npm-test-need');
    assert.equal(slug('Floors inside src/core'), 'floors-inside-srccore');
    // A heading inside a code block is not a heading, and a link inside inline code is not a link.
    assert.ok(![...anchorsOf('docs/plugin-files.md')].some((anchor) => anchor.startsWith('vscodetools')), 'the `# .vscode/tools/build.json:12:9: ...` line in a sh block');
    assert.ok(anchorsOf('docs/plugin-files.md').has('errors-while-you-write'));
    assert.match(brokenLink('README.md', 'docs/no-such-page.md') ?? '', /does not exist/);
    assert.match(brokenLink('README.md', 'docs/security.md#no-such-heading') ?? '', /no heading/);
  });

  test('every relative link and picture in the README, docs/ and the contributor docs reaches its file and heading', () => {
    const broken: string[] = [];
    for (const file of CHECKED) {
      for (const { target, line } of linksOf(file)) {
        if (isExternal(target)) {
          continue;
        }
        const problem = brokenLink(file, target);
        if (problem !== undefined) {
          broken.push(`${file}:${line}: (${target}) ${problem}`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });

  test('every page of docs/ is linked from the README', () => {
    const linked = new Set(linksOf('README.md').filter(({ target }) => !isExternal(target)).map(({ target }) => resolveLink('README.md', target).file));
    assert.deepEqual(DOCS_PAGES.filter((page) => !linked.has(page)), []);
  });

  test('the README\'s first picture is one the demo walk takes (media/readme/), not the e2e fixture\'s editor', () => {
    const first = /!\[[^\]]*\]\(([^)\s]+)\)/.exec(read('README.md'))?.[1] ?? '';
    // SCREENSHOTS_DIR=media/readme bash scripts/e2e/run.sh demo writes them, from a copy of demo/workspace
    assert.match(first, /^media\/readme\/[\w-]+\.png$/);
    assert.ok(existsSync(path.join(ROOT, first)), first);
  });

  test('the npm package\'s README links the repository\'s files that exist, on the repository package.json names', () => {
    const repository = (JSON.parse(read('package.json')) as { repository: { url: string } }).repository.url.replace(/\.git$/, '');
    const links = [...read('packages/workspace-tools-mcp/README.md').matchAll(/\]\((https:\/\/github\.com\/[^)\s]+)\)/g)].map((match) => match[1] ?? '');
    assert.ok(links.length > 0);
    for (const link of links) {
      assert.ok(link.startsWith(repository), `${link} is not on ${repository}`);
      const rest = link.slice(repository.length);
      if (rest === '#readme' || rest === '') {
        continue;
      }
      if (rest.startsWith('#')) {
        assert.equal(brokenLink('README.md', rest), undefined, link);
        continue;
      }
      const file = /^\/blob\/HEAD\/([^#]+)(?:#(.+))?$/.exec(rest);
      assert.ok(file?.[1], `${link}: a link into the repository names /blob/HEAD/<path>`);
      assert.equal(brokenLink('README.md', file[2] === undefined ? file[1] : `${file[1]}#${file[2]}`), undefined, link);
    }
  });

  // A pointer to this repository's docs names its heading (`docs/cli.md#options`); a path without
  // one (`docs/guide.md`) is an example of a user's workspace file.
  test('a docs page and heading named in src/, package.json or the walkthrough exist', () => {
    const sources = [
      ...readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts')).map((name) => `src/${name}`),
      ...readdirSync(path.join(ROOT, 'media/walkthrough')).map((name) => `media/walkthrough/${name}`),
      'package.json',
    ];
    const broken: string[] = [];
    let named = 0;
    for (const file of sources) {
      for (const match of read(file).matchAll(/\bdocs\/[a-z0-9-]+\.md#[a-z0-9-]+/g)) {
        named += 1;
        const problem = brokenLink('README.md', match[0]);
        if (problem !== undefined) {
          broken.push(`${file}: ${match[0]}: ${problem}`);
        }
      }
    }
    assert.deepEqual(broken, []);
    assert.ok(named > 0, 'src/ names at least one docs page (the CLI\'s pointers)');
  });
});
