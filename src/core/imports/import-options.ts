/** What every importer is given. */
import type { ShimFiles } from '../platform/batch-shim';
import type { Platform } from '../platform/platform';
import type { WorkspaceFolder } from '../types';

/** The workspace folder, the platform whose rules apply, and the host values a task may read. */
export interface ImportOptions {
  readonly folder: WorkspaceFolder;
  readonly platform: Platform;
  /** The environment `${env:NAME}` reads and programs are looked up in (default none). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** `${userHome}` (default os.homedir()). */
  readonly home?: string;
  /** How programs are looked at on disk (default the real file system; tests give Windows layouts). */
  readonly files?: ShimFiles;
  /** Replaces the source's default tool-name prefix. */
  readonly prefix?: string;
}
