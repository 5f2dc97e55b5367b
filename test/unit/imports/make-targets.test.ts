import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { importSection } from '../../../src/core/imports';
import { importMakeTargets, makeTargets } from '../../../src/core/imports/import-make';
import { platformNamed } from '../../../src/core/platform/platform';
import { ImportFixture, toolNamed } from './import-fixture';

const linux = platformNamed('linux');
let fixture: ImportFixture;
beforeEach(() => {
  fixture = new ImportFixture();
});
afterEach(() => {
  fixture.dispose();
});

const MAKEFILE = [
  'CC := gcc',
  'OUT ::= out',
  'SRC = a.c b.c',
  'PWNED := $(shell touch pwned-at-import)',
  '.PHONY: build test clean',
  '',
  '# Build everything',
  'build: $(SRC)',
  '\t@echo built > built.txt',
  '',
  'test: build ## Run the tests',
  '\t@echo tested',
  '',
  '%.o: %.c',
  '\t$(CC) -c $<',
  '$(OUT)/x: build',
  '\t@echo x',
  '.c.o:',
  '\t@echo suffix',
  '.venv:',
  '\tmkdir .venv',
  'debug: CFLAGS += -g',
  'clean lint: \\',
  '    build',
  '\t@echo $@',
  'define RECIPE',
  'inside: x',
  'endef',
  'build: more',
  'deps:: ; @echo deps',
  '',
].join('\n');

describe('make targets', () => {
  test('explicit targets only, each once, with the line:column and comment of its first rule', () => {
    assert.deepEqual(makeTargets(MAKEFILE), [
      { name: 'build', line: 8, column: 1, comment: 'Build everything' },
      { name: 'test', line: 11, column: 1, comment: 'Run the tests' },
      { name: 'clean', line: 23, column: 1 },
      { name: 'lint', line: 23, column: 7 },
      { name: 'deps', line: 30, column: 1 },
    ]);
  });

  test('the targets are the ones GNU make itself reads from the file (make -p on a file without $(shell))', () => {
    const safe = MAKEFILE.replace('PWNED := $(shell touch pwned-at-import)\n', '');
    fixture.write('Makefile', safe);
    // -p prints make's database; -q with no goal to build exits non-zero, which is fine here.
    const database = spawnSync('make', ['-pqrR', '-f', 'Makefile', 'no-such-goal'], { cwd: fixture.path, encoding: 'utf8', env: { PATH: process.env['PATH'], LC_ALL: 'C' } }).stdout;
    const explicit = [...database.matchAll(/^([A-Za-z][\w.-]*):{1,2}(?!=)/gm)].map((match) => match[1]).filter((name) => name !== undefined && !/^(Makefile|makefile|GNUmakefile)$/.test(name));
    const ours = makeTargets(safe).map((target) => target.name);
    // What make lists beyond ours are the pattern, variable and special targets we leave out.
    assert.deepEqual(ours.filter((name) => !explicit.includes(name)), []);
    assert.ok(explicit.includes('out/x') || !ours.includes('out/x'));
  });

  test('importing reads the file and never evaluates it; a target runs for real', async () => {
    fixture.write('Makefile', MAKEFILE);
    const result = await importMakeTargets({ folder: fixture.folder, platform: linux });
    assert.equal(existsSync(join(fixture.path, 'pwned-at-import')), false);
    const build = toolNamed(result, 'make-build');
    assert.deepEqual(build.run, { kind: 'process', argv: ['make', 'build'] });
    assert.deepEqual(build.source, { file: 'Makefile', line: 8, column: 1 });
    assert.match(build.description, /^Build everything Runs the make target "build"/);
    fixture.write('a.c', '').write('b.c', '').write('more', '');
    const ran = await fixture.run(build);
    assert.equal(ran.isError, false, ran.text);
    assert.equal(existsSync(join(fixture.path, 'built.txt')), true);
    assert.deepEqual(result.sources.map((source) => [source.path, source.content === null]), [['GNUmakefile', true], ['makefile', true], ['Makefile', false]]);
  });

  test('GNUmakefile wins over Makefile, as in make; no makefile is three absent sources', async () => {
    assert.deepEqual((await importMakeTargets({ folder: fixture.folder, platform: linux })).sources.map((source) => source.content), [null, null, null]);
    fixture.write('Makefile', 'other:\n\t@true\n').write('GNUmakefile', 'mine:\n\t@true\n');
    const result = await importMakeTargets({ folder: fixture.folder, platform: linux });
    assert.deepEqual(result.tools.map((tool) => tool.name), ['make-mine']);
  });

  test('no phantom targets: words of a $(shell), $(error) or include line are not targets, and the real target beside them is served', async () => {
    const phantoms = [
      '$(shell touch x):',
      'ifeq ($(filter $(MAKECMDGOALS),clean),)',
      '$(error Makefile.config not found; this make is not: $(x))',
      'endif',
      'include $(SRCS:.c=.d)',
      '-include $(OBJS:%.o=%.d)',
      '${info x: y} ',
      '$(foreach t,$(TESTS),$(eval $(t): ; @echo $(t)))',
      'not: ## the real one',
      '\t@echo real-not',
      'touch x:',
      '\t@echo real',
      '',
    ].join('\n');
    assert.deepEqual(makeTargets(phantoms), [
      { name: 'not', line: 9, column: 1, comment: 'the real one' },
      { name: 'touch', line: 11, column: 1 },
      { name: 'x', line: 11, column: 7 },
    ]);
    fixture.write('Makefile', phantoms);
    const result = await importSection([{ from: 'make' }], { folder: fixture.folder, platform: linux });
    assert.deepEqual(result.tools.map((tool) => [tool.name, tool.source.line]), [['make-not', 9], ['make-touch', 11], ['make-x', 11]]);
    // The include lines are said, at their lines; nothing else is refused.
    assert.deepEqual(result.notServed.map((entry) => [entry.name, entry.source.line]), [['include $(SRCS:.c=.d)', 5], ['-include $(OBJS:%.o=%.d)', 6]]);
    assert.equal(existsSync(join(fixture.path, 'x')), false);
  });

  test('an include is said at its line: the included file\'s targets are not tools, the file is approved with the Makefile', async () => {
    fixture.write('common.mk', 'shared:\n\t@echo shared\n');
    fixture.write('Makefile', 'all:\n\t@echo all\n\n  include common.mk # the shared rules\n');
    const result = await importMakeTargets({ folder: fixture.folder, platform: linux });
    assert.deepEqual(result.tools.map((tool) => tool.name), ['make-all']);
    assert.deepEqual(result.notServed, [
      { name: 'include common.mk', reason: 'the targets of common.mk (which make reads here) are not imported: only the targets written in Makefile are tools', source: { file: 'Makefile', line: 4, column: 3 } },
    ]);
    assert.ok(result.sources.some((source) => source.path === 'common.mk' && source.content === 'shared:\n\t@echo shared\n'));
  });

  test('a prefix replaces make-, and two targets that slug alike are refused naming both', async () => {
    fixture.write('Makefile', 'Build:\n\t@true\nbuild:\n\t@true\n');
    const result = await importSection([{ from: 'make', prefix: 'm_' }], { folder: fixture.folder, platform: linux });
    assert.deepEqual(result.tools.map((tool) => tool.name), ['m_build']);
    assert.match(result.notServed[0]?.reason ?? '', /already the name of "Build" \(Makefile:1:1\); this one \(Makefile:3:1\)/);
  });
});
