/**
 * Runs in a fresh Node process (module caches cold): loads the plugin workspace through the
 * bundled core, reloads it, validates one input, and prints the timings as one JSON line.
 * Usage: node in-process-child.mjs <core-bundle.js> <plugin-workspace> <validations>
 */
import { createRequire } from 'node:module';

const [bundle, workspace, validationsArg] = process.argv.slice(2);
const validations = Number(validationsArg ?? 1000);
const require = createRequire(import.meta.url);

const t0 = performance.now();
const core = require(bundle);
const requireMs = performance.now() - t0;

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const registry = core.createWorkspaceRegistry({
  folders: () => [{ name: 'ws', path: workspace }],
  includeBuiltins: true,
  includePlugins: true,
  approval: new core.ApproveAllPolicy(),
  limits: () => core.DEFAULT_LIMITS,
  env: process.env,
  logger: silent,
});

const t1 = performance.now();
await registry.initialize();
const loadMs = performance.now() - t1;
const tools = registry.count;
const diagnostics = registry.diagnostics().length;

const t2 = performance.now();
await registry.reload();
const reloadMs = performance.now() - t2;

// One plugin tool's schema: the first check pays for loading ajv and compiling the schema.
const tool = registry.list().find((definition) => definition.source.kind === 'plugin');
const validator = new core.InputValidator();
const input = { pattern: 'TODO', directory: 'src' };
const t3 = performance.now();
const first = validator.check(tool.inputSchema, input);
const validateFirstMs = performance.now() - t3;
const samples = [];
for (let i = 0; i < validations; i++) {
  const start = performance.now();
  validator.check(tool.inputSchema, input);
  samples.push(performance.now() - start);
}
samples.sort((a, b) => a - b);
const validateMs = samples[Math.floor(samples.length / 2)];

registry.dispose();
process.stdout.write(
  `${JSON.stringify({ requireMs, loadMs, reloadMs, validateFirstMs, validateMs, tools, diagnostics, firstOk: first.ok })}\n`,
);
