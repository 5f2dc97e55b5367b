/**
 * What a code tool runs, for the person who approves its plugin file: the module (its path, hash
 * and first lines) and its limits; and the sandbox it runs in, with exactly what that sandbox
 * allows (codeConfinement).
 */
import type { SourceFile } from '../../files/source-file';
import type { SandboxPermissions } from './sandbox';
import { RESIDENT_MARGIN_MB } from './sandbox';
import type { SandboxRuntime } from './runtime';
import type { CodeHandlerSpec } from './spec';
import { DEFAULT_MAX_HEAP_MB } from './spec';

/** Lines of the module shown for approval before it points at the file instead. */
const MAX_SHOWN_LINES = 30;

/** What describeCode needs of a compiled code tool. */
export interface DescribedCode {
  readonly spec: CodeHandlerSpec;
  readonly source: SourceFile;
  readonly runtime: SandboxRuntime;
  readonly permissions: SandboxPermissions;
}

/**
 * What confines a code tool, in words: its sandbox is Node's permission model, set by its tags
 * (not the OS sandbox of shell tools). The approval text, `list` and the tools view show it as
 * the tool's sandbox (CompiledHandler.confinement).
 */
export function codeConfinement(permissions: SandboxPermissions, runtime: SandboxRuntime): string {
  const network = runtime.restrictsNetwork ? (permissions.network ? 'allowed' : 'denied') : `not restricted (Node ${runtime.nodeVersion} cannot deny it)`;
  return (
    `Node's permission model (a code tool; not the OS sandbox): reads the workspace folder only; writes ${permissions.write ? 'inside the workspace folder' : 'nothing'}; ` +
    `processes ${permissions.childProcess ? 'allowed' : 'denied'}; no workers, native addons or signals to any process; network ${network}`
  );
}

/** The approval lines of a code tool (its sandbox is said beside them: codeConfinement). */
export function describeCode(code: DescribedCode): string[] {
  const { spec, source } = code;
  const lines = source.text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') {
    lines.pop();
  }
  const shown = lines.slice(0, MAX_SHOWN_LINES).map((line) => `| ${line}`);
  const more = lines.length > MAX_SHOWN_LINES ? [`| … ${lines.length - MAX_SHOWN_LINES} more lines: read them in ${spec.module}`] : [];
  const heapMb = spec.maxHeapMb ?? DEFAULT_MAX_HEAP_MB;
  return [
    `module: ${spec.module} (${lines.length} lines, sha256 ${source.hash.slice(0, 16)}…)`,
    ...shown,
    ...more,
    `limits: heap ${heapMb} MB, resident memory ${heapMb + RESIDENT_MARGIN_MB} MB, timeout ${spec.timeout === undefined ? 'the default' : `${spec.timeout} ms`}`,
    ...(spec.env === undefined ? [] : [`env: ${Object.entries(spec.env).map(([key, value]) => `${key}=${value}`).join(' ')}`]),
  ];
}
