import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { INTERPOLATED_VALUE, importJustRecipes } from '../../../src/core/imports/import-just';
import { platformNamed } from '../../../src/core/platform/platform';
import { INJECTIONS, reasonFor, toolNamed, workspaceForEachTest, type ImportFixture } from './import-fixture';

/**
 * The real just: rust-just-linux-x64, an exact-pinned optional dependency (the binary only; npm
 * skips it on other platforms, where these tests say what is missing instead of passing).
 */
function realJust(): string {
  try {
    return join(dirname(createRequire(__filename).resolve('rust-just-linux-x64/package.json')), 'bin', 'just');
  } catch {
    throw new Error(`the just tests run the real just from the optional dependency rust-just-linux-x64, which npm installs on Linux x64 only (this is ${platform()}-${arch()})`);
  }
}
const JUST = realJust();

const linux = platformNamed('linux');
let fixture: ImportFixture;
workspaceForEachTest((made) => (fixture = made));

const node = JSON.stringify(process.execPath);
const JUSTFILE = [
  'leaked := `touch pwned-at-import`',
  '',
  '# Print the arguments',
  `show first second="two" *rest:`,
  `    ${node} argv.js {{quote(first)}} {{quote(second)}} {{rest}}`,
  '',
  '[positional-arguments]',
  'positional value:',
  `    ${node} argv.js "$1"`,
  '',
  'exported $VALUE:',
  `    ${node} argv.js "$VALUE"`,
  '',
  '@spliced name:',
  '    echo {{name}}',
  '',
  'needs +items:',
  `    ${node} argv.js {{items}}`,
  '',
  '[private]',
  'hidden:',
  '    true',
  '',
  '_underscored:',
  '    true',
  '',
].join('\n');

const importHere = (extra: { justProgram?: string; env?: Record<string, string | undefined> } = {}) =>
  importJustRecipes({ folder: fixture.folder, platform: linux, justProgram: JUST, env: { PATH: process.env['PATH'] }, ...extra });

describe('just recipes (the real just)', () => {
  test('public recipes become tools with typed parameters and their lines; --dump evaluates nothing', async () => {
    fixture.write('justfile', JUSTFILE);
    const result = await importHere();
    assert.equal(existsSync(join(fixture.path, 'pwned-at-import')), false);
    assert.deepEqual(result.tools.map((tool) => tool.name).sort(), ['just-exported', 'just-needs', 'just-positional', 'just-show', 'just-spliced']);
    const show = toolNamed(result, 'just-show');
    assert.deepEqual(show.source, { file: 'justfile', line: 4, column: 1 });
    assert.match(show.description, /^Print the arguments Runs: \S*just --justfile justfile --working-directory \. show/);
    assert.deepEqual(show.inputSchema, {
      type: 'object',
      properties: {
        first: { type: 'string', description: "The recipe's parameter first." },
        second: { type: 'string', description: "The recipe's parameter second.", default: 'two' },
        rest: { type: 'array', items: { type: 'string', pattern: INTERPOLATED_VALUE }, description: "The recipe's parameter rest." },
      },
      required: ['first'],
      additionalProperties: false,
    });
    assert.deepEqual(toolNamed(result, 'just-needs').inputSchema.required, ['items']);
    assert.deepEqual(result.sources, [{ path: 'justfile', content: JUSTFILE }]);
  });

  test('each tool carries its recipe as the justfile writes it, for approval: attributes, header and body lines (issue 35 item 3)', async () => {
    fixture.write('justfile', JUSTFILE);
    const result = await importHere();
    assert.deepEqual(toolNamed(result, 'just-show').body, ['justfile:4 recipe "show":', '| show first second="two" *rest:', `|     ${node} argv.js {{quote(first)}} {{quote(second)}} {{rest}}`]);
    assert.deepEqual(toolNamed(result, 'just-positional').body, ['justfile:8 recipe "positional":', '| [positional-arguments]', '| positional value:', `|     ${node} argv.js "$1"`]);
    assert.deepEqual(toolNamed(result, 'just-spliced').body, ['justfile:14 recipe "spliced":', '| @spliced name:', '|     echo {{name}}']);
  });

  test('values read through quote(), $1 or an exported variable reach the program literally', async () => {
    fixture.write('justfile', JUSTFILE);
    const result = await importHere();
    for (const value of INJECTIONS) {
      assert.deepEqual(await fixture.argvOf(toolNamed(result, 'just-show'), { first: value, rest: ['a', 'b'] }), [value, 'two', 'a', 'b'], JSON.stringify(value));
      assert.deepEqual(await fixture.argvOf(toolNamed(result, 'just-positional'), { value }), [value], JSON.stringify(value));
      assert.deepEqual(await fixture.argvOf(toolNamed(result, 'just-exported'), { VALUE: value }), [value], JSON.stringify(value));
    }
  });

  test('variadic values passed on as separate arguments ("$@") may be flags; a variadic parameter with a default is optional; spliced ones stay inert', async () => {
    fixture.write('justfile', [
      '[positional-arguments]',
      'fwd +args:',
      `    ${node} argv.js "$@"`,
      '',
      'defaulted +items="one":',
      `    ${node} argv.js {{items}}`,
      '',
    ].join('\n'));
    const result = await importHere();
    const fwd = toolNamed(result, 'just-fwd');
    assert.deepEqual(fwd.inputSchema.required, ['args']);
    const flags = ['--release', '-x', '--name=a b', '-rf', '--', '; touch pwned'];
    assert.deepEqual(await fixture.argvOf(fwd, { args: flags }), flags);
    const defaulted = toolNamed(result, 'just-defaulted');
    assert.equal(defaulted.inputSchema.required, undefined);
    assert.deepEqual(await fixture.argvOf(defaulted, {}), ['one']);
    assert.deepEqual(await fixture.argvOf(defaulted, { items: ['a', 'b'] }), ['a', 'b']);
    // Spliced into the recipe's shell text, a leading "-" would be an option of whatever the line runs.
    assert.equal((await fixture.run(defaulted, { items: ['-rf'] })).isError, true);
    assert.equal(existsSync(join(fixture.path, 'pwned')), false);
  });

  test('a parameter spliced into the shell line takes only inert values', async () => {
    fixture.write('justfile', JUSTFILE);
    const spliced = toolNamed(await importHere(), 'just-spliced');
    assert.match(spliced.description, /splices name into its shell text/);
    const ok = await fixture.run(spliced, { name: 'v1.2/x' });
    assert.equal(ok.text.trim(), 'v1.2/x');
    for (const name of ['; touch pwned', '$(touch pwned)', '-rf', 'a b']) {
      const refused = await fixture.run(spliced, { name });
      assert.equal(refused.isError, true, name);
    }
    assert.equal(existsSync(join(fixture.path, 'pwned')), false);
  });

  test('a value reaches the line through a default, a dependency or shell(): those parameters are inert too (issue 33)', async () => {
    fixture.write('justfile', [
      'greet who suffix=(who + "!"):',
      '    echo {{suffix}}',
      'safe who suffix=(quote(who)):',
      '    echo {{suffix}}',
      'show a:',
      '    echo {{a}}',
      'tell a:',
      `    ${node} argv.js {{quote(a)}}`,
      'fwd y: (show y)',
      '    true',
      'fwd-quoted y: (tell y)',
      '    true',
      'dig who="w" y=(shell("echo " + who)):',
      '    true',
      '',
    ].join('\n'));
    const result = await importHere();
    const pattern = (tool: string, parameter: string) => (toolNamed(result, tool).inputSchema.properties?.[parameter] as { pattern?: string } | undefined)?.pattern;
    assert.equal(pattern('just-greet', 'who'), INTERPOLATED_VALUE, 'who reaches the line through suffix\'s default');
    assert.equal(pattern('just-safe', 'who'), undefined, 'quote() keeps it one word');
    assert.equal(pattern('just-fwd', 'y'), INTERPOLATED_VALUE, 'show splices what fwd passes it');
    assert.equal(pattern('just-fwd-quoted', 'y'), undefined, 'tell quotes it');
    assert.equal(pattern('just-dig', 'who'), INTERPOLATED_VALUE, 'shell() runs it');
    const refused = await fixture.run(toolNamed(result, 'just-fwd'), { y: 'x; touch pwned #' });
    assert.equal(refused.isError, true);
    assert.deepEqual(await fixture.argvOf(toolNamed(result, 'just-fwd-quoted'), { y: 'x; touch pwned #' }), ['x; touch pwned #']);
    assert.equal(existsSync(join(fixture.path, 'pwned')), false);
  });

  test('a recipe line that would run a value as nested code is not served, nor one that passes values to it', async () => {
    fixture.write('justfile', ['run x:', '    bash -c {{quote(x)}}', 'pass y: (run y)', '    true', '[positional-arguments]', 'pos x:', '    sh -c "$1"', 'ok x:', '    sh -c \'echo "$1"\' sh {{quote(x)}}', ''].join('\n'));
    const result = await importHere();
    assert.match(reasonFor(result, 'run'), /the value of the parameter x would be in the script that "bash -c" runs/);
    assert.match(reasonFor(result, 'pass'), /it passes its values to "run", where/);
    assert.match(reasonFor(result, 'pos'), /"sh -c"/);
    assert.deepEqual(result.tools.map((tool) => tool.name), ['just-ok']);
  });

  test('just found on PATH; not installed is said, at the justfile', async () => {
    fixture.write('justfile', 'build:\n    true\n');
    const bin = join(fixture.path, 'bin');
    mkdirSync(bin);
    symlinkSync(JUST, join(bin, 'just'));
    const onPath = await importJustRecipes({ folder: fixture.folder, platform: linux, env: { PATH: bin } });
    assert.deepEqual(onPath.tools.map((tool) => tool.name), ['just-build']);
    const missing = await importJustRecipes({ folder: fixture.folder, platform: linux, env: { PATH: join(fixture.path, 'empty') } });
    assert.equal(missing.tools.length, 0);
    assert.match(reasonFor(missing, 'justfile'), /just is not installed/);
    assert.deepEqual(missing.notServed[0]?.source, { file: 'justfile', line: 1, column: 1 });
    assert.deepEqual(missing.sources, [{ path: 'justfile', content: 'build:\n    true\n' }]);
  });

  test('Restricted Mode (runsNoPrograms): just is never started, and the justfile says why it lists nothing', async () => {
    fixture.write('justfile', 'build:\n    true\n');
    const marker = join(fixture.path, 'just-ran');
    const fakeJust = join(fixture.path, 'fake-just');
    writeFileSync(fakeJust, `#!/bin/sh\ntouch '${marker}'\n`);
    chmodSync(fakeJust, 0o755);
    const result = await importJustRecipes({ folder: fixture.folder, platform: linux, justProgram: fakeJust, env: { PATH: process.env['PATH'] }, runsNoPrograms: true });
    assert.equal(existsSync(marker), false, 'just ran in Restricted Mode');
    assert.equal(result.tools.length, 0);
    assert.match(reasonFor(result, 'justfile'), /waits until the workspace is trusted/);
    assert.deepEqual(result.sources, [{ path: 'justfile', content: 'build:\n    true\n' }]);
  });

  test('a justfile just refuses is one entry with just\'s own words; no justfile is absent sources', async () => {
    assert.ok((await importHere()).sources.every((source) => source.content === null));
    fixture.write('justfile', 'build\n    true\n');
    assert.match(reasonFor(await importHere(), 'justfile'), /just --dump exited with code 1: error/);
  });

  test('recipes from an imported file are not served (approval would not cover them)', async () => {
    fixture.write('other.just', 'elsewhere:\n    true\n').write('justfile', "import 'other.just'\nhere:\n    true\n");
    const result = await importHere();
    assert.deepEqual(result.tools.map((tool) => tool.name), ['just-here']);
    assert.match(reasonFor(result, 'elsewhere'), /imported file/);
  });
});
