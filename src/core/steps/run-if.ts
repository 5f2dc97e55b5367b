/**
 * When a step of a multi-step tool runs. It lives with the steps that read it (run-steps.ts);
 * the plugin file's types (plugins/plugin-types.ts) use it from here, a floor below.
 */

/** When a step runs: a word, or a condition on an earlier step. */
export type RunIf =
  | 'success'
  | 'failure'
  | 'always'
  | { readonly step: string; readonly exitCode: number | readonly number[] }
  | { readonly step: string; readonly outputContains: string };
