/** `handler` of `type: "file-read"` as it is after schema validation: text files under a base path. */
export interface FileReadHandlerSpec {
  readonly type: 'file-read';
  /** Base directory relative to the workspace folder (default the folder). */
  readonly basePath?: string;
  /** Largest file served, in bytes (default 1 MiB). */
  readonly maxSize?: number;
}
