/** `handler` of `type: "code"` as it is after schema validation (the schema is the authority). */
export interface CodeHandlerSpec {
  readonly type: 'code';
  /** `.ts`, `.mts`, `.js` or `.mjs`, relative to the workspace folder; its default export runs. */
  readonly module: string;
  /** Milliseconds before the sandbox's process tree is killed (default: the shell default, 30 s). */
  readonly timeout?: number;
  /** V8 heap cap of the sandbox in MB (`--max-old-space-size`, default 256). */
  readonly maxHeapMb?: number;
  /** Cap on the result text, and on captured stdout and stderr each, in bytes. */
  readonly maxOutputBytes?: number;
  /** Environment variables beyond the allowlist; values are text and `${env:NAME}`. */
  readonly env?: Readonly<Record<string, string>>;
}

/** Heap cap when the spec sets none, in MB. */
export const DEFAULT_MAX_HEAP_MB = 256;

/** The module extensions a code tool accepts, and whether they are TypeScript. */
export const MODULE_EXTENSIONS: ReadonlyMap<string, { readonly typescript: boolean }> = new Map([
  ['.ts', { typescript: true }],
  ['.mts', { typescript: true }],
  ['.js', { typescript: false }],
  ['.mjs', { typescript: false }],
]);
