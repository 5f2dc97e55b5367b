// typescript-eslint with type information for the TypeScript, plus the house rules of STYLE.md: no
// floating promises, type-only imports marked, strict equality, braces always, and no `vscode`
// import below src/extension (src/core and src/mcp run in plain Node), the MCP SDK only in src/mcp,
// and the floors inside src/core (FLOORS below; ARCHITECTURE.md "Floors inside src/core"). The plain JavaScript
// (bench, scripts, the e2e driver and harness) gets @eslint/js's recommended rules without type
// information: it has no build step and no tsconfig, and linting it typed would be slow.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The floors of src/core, lowest first: each folder (or top-level module, without `.ts`) may
 * import from its own floor and the floors below, never from one above. Renaming a folder is a
 * one-line change here; test/unit/lint/floors.test.ts fails when a folder of src/core is in no floor.
 */
export const FLOORS = [
  ['platform', 'paths', 'json-schema', 'bundled-module', 'redact', 'user-paths', 'progress-throttle', 'turns'],
  ['types', 'tool-errors', 'templates', 'process', 'output', 'files', 'settings', 'content', 'sandbox', 'tasks', 'running'],
  ['handlers', 'builtins', 'editor-bridge'],
  ['steps', 'resources', 'completions', 'prompts'],
  ['plugins', 'imports'],
  ['registry', 'approval', 'history', 'client-config'],
  ['declared-tests', 'workspace-registry'],
];

const VSCODE_ONLY_IN_EXTENSION = { name: 'vscode', message: 'src/core and src/mcp run in plain Node: only src/extension may import vscode.' };
const SDK_ONLY_IN_MCP = { regex: '^@modelcontextprotocol/(sdk|server|client|core)(/|$)', message: 'The MCP SDK is used only in src/mcp: src/core and src/extension speak through its modules.' };

/** The lint rule of one floor: vscode and the SDK refused, and every folder of the floors above. */
function floorRule(index) {
  const above = FLOORS.slice(index + 1).flat();
  const patterns = [SDK_ONLY_IN_MCP];
  if (above.length > 0) {
    patterns.push({
      // A relative import (./x, ../x, ../../x) whose first named segment is a folder above.
      regex: `^(\\.\\.?/)+(${above.join('|')})(/|$)`,
      message: `src/core/${FLOORS[index].join(', ')} may import only from their floor or below, not from ${above.join(', ')} (ARCHITECTURE.md "Floors inside src/core").`,
    });
  }
  return {
    files: FLOORS[index].flatMap((name) => [`src/core/${name}/**/*.ts`, `src/core/${name}.ts`]),
    rules: { 'no-restricted-imports': ['error', { paths: [VSCODE_ONLY_IN_EXTENSION], patterns }] },
  };
}

/** The plain JavaScript that is ours to lint (the fixture workspace's files are test data). */
const PLAIN_JS = ['bench/**/*.mjs', 'scripts/**/*.mjs', 'scripts/**/*.js', 'test/e2e/**/*.js', 'test/e2e/**/*.mjs'];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test/e2e/fixture-workspace/**'] },
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      eqeqeq: 'error',
      curly: 'error',
      'no-console': 'error',
    },
  },
  {
    files: ['src/core/**/*.ts', 'src/mcp/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [VSCODE_ONLY_IN_EXTENSION] }] },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [VSCODE_ONLY_IN_EXTENSION], patterns: [SDK_ONLY_IN_MCP] }] },
  },
  {
    files: ['src/extension/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SDK_ONLY_IN_MCP] }] },
  },
  // Later blocks replace the rule's options for their files: each floor repeats the two above.
  ...FLOORS.map((_floor, index) => floorRule(index)),
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/require-await': 'off',
      // node:test's describe/test return promises that the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'test', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }] },
      ],
    },
  },
  {
    files: PLAIN_JS,
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module', globals: { ...globals.node } },
    rules: {
      // `_`-prefixed parameters and caught errors that are deliberately unused, as in the TypeScript.
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // the driver, the desktop suite and the e2e scripts are CommonJS (the extension host `require`s them)
    files: ['test/e2e/**/*.js', 'scripts/**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    // page.evaluate() callbacks run in the workbench page, not in Node
    files: ['test/e2e/harness/**/*.js'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
