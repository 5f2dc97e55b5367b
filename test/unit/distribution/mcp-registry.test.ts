/**
 * The MCP Registry entry: server.json at the repository root is valid against the registry's
 * schema (2025-12-11, a pinned copy in schemas/mcp-registry/) and describes this release, and the
 * npm package `npm run package` packs carries the `mcpName` the registry matches it by (the
 * entry's `name`, case included) and the same version. The registry reads both from the published
 * tarball, so a mismatch would otherwise cost a release.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ValidateFunction } from 'ajv';
import { version } from '../../../package.json';
import { createAjv } from '../../../src/core/json-schema/ajv';
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';
import { withoutNpmSettings } from '../helpers/registry';

const ROOT = path.resolve(__dirname, '../../../..');
const SCHEMA_FILE = path.join(ROOT, 'schemas/mcp-registry/server.schema.2025-12-11.json');
/** The pinned copy's bytes: moving to another schema is a deliberate change of the file and this line. */
const SCHEMA_SHA256 = 'd4c163f299ece68b7432f4e44c4108f2fdb663d99dc088c8344142e5b0a4b520';
const SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

interface ServerJson {
  $schema: string;
  name: string;
  version: string;
  description: string;
  packages: Array<{ registryType: string; identifier: string; version: string; transport: { type: string }; packageArguments?: Array<{ name?: string }>; environmentVariables?: Array<{ name: string }> }>;
}

const serverJson = (): ServerJson => JSON.parse(readFileSync(path.join(ROOT, 'server.json'), 'utf8')) as ServerJson;

/** The registry's schema, compiled as the registry's own validator reads it (draft-07, `uri` checked). */
function registryValidator(): ValidateFunction {
  const ajv = createAjv({ allErrors: true, strict: false });
  ajv.addFormat('uri', (value: string) => URL.canParse(value));
  return ajv.compile(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as object);
}

let tmp: TempDir;
/** The package.json inside the tarball `scripts/package.mjs --npm` packs. */
let packed: Record<string, unknown>;

before(() => {
  tmp = makeTempDir('wt-registry-');
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/package.mjs'), '--npm', '--out', tmp.path], { cwd: ROOT, env: withoutNpmSettings(), stdio: 'ignore' });
  const tarball = path.join(tmp.path, `workspace-tools-mcp-${version}.tgz`);
  packed = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as Record<string, unknown>;
});

after(() => tmp?.cleanup());

describe('the MCP Registry entry (server.json)', () => {
  test('the pinned schema is the 2025-12-11 one, byte for byte as pinned', () => {
    const bytes = readFileSync(SCHEMA_FILE);
    assert.equal(createHash('sha256').update(bytes).digest('hex'), SCHEMA_SHA256);
    assert.equal((JSON.parse(bytes.toString('utf8')) as { $id: string }).$id, SCHEMA_URL);
  });

  test('server.json is valid against it, names it, and describes this release: the npm package, its version, arguments and environment', () => {
    const validate = registryValidator();
    const entry = serverJson();
    assert.equal(validate(entry), true, JSON.stringify(validate.errors, null, 2));
    assert.equal(entry.$schema, SCHEMA_URL);
    assert.equal(entry.version, version);
    const [npm, ...others] = entry.packages;
    assert.equal(others.length, 0);
    assert.deepEqual([npm?.registryType, npm?.identifier, npm?.version, npm?.transport.type], ['npm', 'workspace-tools-mcp', version, 'stdio']);
    assert.ok(npm?.packageArguments?.some((argument) => argument.name === '--workspace'), 'the --workspace argument is described');
    assert.ok(npm?.environmentVariables?.some((variable) => variable.name === 'WORKSPACE_TOOLS_RIPGREP'), 'the environment is described');
  });

  test('the validator rejects what the registry rejects: a name without its namespace, a description over 100 characters, "latest"', () => {
    const validate = registryValidator();
    const entry = serverJson();
    assert.equal(validate({ ...entry, name: 'workspace-tools' }), false);
    assert.equal(validate({ ...entry, description: 'x'.repeat(101) }), false);
    assert.equal(validate({ ...entry, packages: [{ ...entry.packages[0], version: 'latest' }] }), false);
  });

  test('the packed npm package carries mcpName equal to the entry\'s name (case included) and the same version', () => {
    const entry = serverJson();
    assert.equal(packed['mcpName'], entry.name);
    assert.equal(packed['version'], entry.version);
    assert.equal(packed['name'], entry.packages[0]?.identifier);
  });
});
