// Type-checks and compiles src/ and test/ with tsc into out/, builds the bundles the stdio tests
// spawn (dist/mcp-server.js), then runs every compiled *.test.js under node:test.
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const run = (file, args) => execFileSync(file, args, { cwd: root, stdio: 'inherit' });

rmSync(join(root, 'out'), { recursive: true, force: true });
run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.']);
run(process.execPath, [join(root, 'esbuild.mjs')]);

/** Every compiled test file below out/test/unit, in a stable order. */
function findTests(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) return findTests(full);
      return entry.name.endsWith('.test.js') ? [full] : [];
    });
}

const files = findTests(join(root, 'out/test/unit'));
const only = process.argv.slice(2);
const selected = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;
run(process.execPath, ['--test', '--test-reporter=spec', ...selected]);
