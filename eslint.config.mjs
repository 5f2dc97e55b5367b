// typescript-eslint with type information for the TypeScript, plus the house rules of STYLE.md: no
// floating promises, type-only imports marked, strict equality, braces always, and no `vscode`
// import below src/extension (src/core and src/mcp run in plain Node). The plain JavaScript
// (bench, scripts, the e2e driver and harness) gets @eslint/js's recommended rules without type
// information: it has no build step and no tsconfig, and linting it typed would be slow.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/core and src/mcp run in plain Node: only src/extension may import vscode.' }] }],
    },
  },
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
