/**
 * Doors that Node's permission model leaves open, closed by the runner before it loads a module:
 * sending signals (`process.kill` and the binding behind it), opening another process's inspector
 * (`process._debugProcess`: SIGUSR1 on POSIX, a remote thread on Windows), changing another
 * process's priority, Node's internal bindings, trace files (written without a write check on
 * Node 20), `node:sqlite` (opens and creates files anywhere, unchecked) and `fs.realpathSync`
 * (answers outside the granted paths). V8's flags are frozen by a flag instead (runtime.ts):
 * closing `v8.setFlagsFromString` here would load node:v8, tens of milliseconds a sandbox start.
 *
 * Each is replaced on the object every way of reaching it goes through (`process`, the `node:os`,
 * `node:fs`... exports, which `import`, `require` and `process.getBuiltinModule` all
 * return, and whose ES module facades are made from them on first import, after this ran) by a
 * function that throws an ERR_ACCESS_DENIED error like Node's own, and the property is made
 * read-only and non-configurable: the module can neither put the original back nor reach it.
 * Part of the runner (dist/code-runner.js): Node built-ins only.
 */
import type * as Fs from 'node:fs';
import type * as Os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A built-in module's own exports object (what `import` and `require` hand out), undefined when
 * this runtime has no such module. Not `import * as`: compiled to CommonJS that is a copy.
 */
function builtin<T>(name: string): T | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (process.getBuiltinModule?.(name) ?? require(name)) as T | undefined;
  } catch {
    return undefined;
  }
}

/** A built-in module every runtime has; throws DoorStillOpenError if this one does not. */
function requiredBuiltin<T>(name: string): T {
  const exports = builtin<T>(name);
  if (exports === undefined) {
    throw new DoorStillOpenError(`could not load ${name}`);
  }
  return exports;
}

/** What the runner reports when a door could not be closed; the module is then not run. */
class DoorStillOpenError extends Error {
  override readonly name = 'DoorStillOpenError';
}

/**
 * An error in the shape of Node's permission refusals: `permission` names what was missing and
 * `resource` what it was for, so the parent words it as it words Node's own.
 */
function accessDenied(permission: string, resource: string): Error {
  const error = new Error(`Access to this API has been restricted by the code tool's sandbox (${permission}: ${resource})`) as Error & { code: string; permission: string; resource: string };
  error.code = 'ERR_ACCESS_DENIED';
  error.permission = permission;
  error.resource = resource;
  return error;
}

/** Replaces `target[name]` for good; throws DoorStillOpenError when the property cannot be replaced. */
function close(target: object, name: string, value: unknown): void {
  const before = Object.getOwnPropertyDescriptor(target, name);
  try {
    Object.defineProperty(target, name, { value, writable: false, configurable: false, enumerable: before?.enumerable ?? true });
  } catch (error) {
    throw new DoorStillOpenError(`could not close ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if ((target as Record<string, unknown>)[name] !== value) {
    throw new DoorStillOpenError(`could not close ${name}: it still answers with the original`);
  }
}

/** "SIGKILL", from a name or a number as process.kill takes them (default SIGTERM). */
function signalName(signal: unknown): string {
  if (signal === undefined) {
    return 'SIGTERM';
  }
  if (typeof signal === 'number') {
    const name = Object.entries(requiredBuiltin<typeof Os>('node:os').constants.signals).find(([, number]) => number === signal)?.[0];
    return name ?? `signal ${signal}`;
  }
  return typeof signal === 'string' ? signal : `a ${typeof signal} as signal`;
}

/** A refusing function named like the one it replaces, so stack traces still read well. */
function refusing(name: string, refusal: (...args: unknown[]) => Error): (...args: unknown[]) => never {
  const refuse = {
    [name](...args: unknown[]): never {
      throw refusal(...args);
    },
  }[name];
  if (refuse === undefined) {
    throw new DoorStillOpenError(`could not make a refusal for ${name}`);
  }
  return refuse;
}

function closeSignals(): void {
  const signalRefusal = (pid: unknown, signal: unknown): Error => accessDenied('Signal', `${signalName(signal)} to process ${String(pid)}`);
  close(process, 'kill', refusing('kill', signalRefusal));
  close(process, '_kill', refusing('_kill', signalRefusal));
  close(process, '_debugProcess', refusing('_debugProcess', (pid) => accessDenied('Inspector', `of process ${String(pid)}`)));
  close(requiredBuiltin<object>('node:os'), 'setPriority', refusing('setPriority', (pid, priority) => accessDenied('ProcessPriority', priority === undefined ? 'of this process' : `of process ${String(pid)}`)));
}

function closeInternals(): void {
  close(process, 'binding', refusing('binding', (name) => accessDenied('InternalBinding', String(name))));
  close(process, '_linkedBinding', refusing('_linkedBinding', (name) => accessDenied('InternalBinding', String(name))));
  // Node 22 checks the write permission itself; loading node:trace_events costs a start tens of ms.
  if (Number(process.versions.node.split('.')[0]) < 22) {
    close(requiredBuiltin<object>('node:trace_events'), 'createTracing', refusing('createTracing', () => accessDenied('TraceEvents', 'a trace file')));
  }
}

/** Every function `node:sqlite` exports, where this runtime has it (the flag that removes it is missing). */
function closeSqlite(): void {
  // None on Node 20, before 22.13 without --experimental-sqlite, or with --no-experimental-sqlite.
  const sqlite = builtin<Record<string, unknown>>('node:sqlite');
  for (const [name, value] of Object.entries(sqlite ?? {})) {
    if (sqlite !== undefined && typeof value === 'function') {
      close(sqlite, name, refusing(name, () => accessDenied('SQLite', 'a database file')));
    }
  }
}

/** The path a file-system call names, resolved against the working directory. */
function resolvedPath(given: unknown): string {
  const text = given instanceof URL ? fileURLToPath(given) : Buffer.isBuffer(given) ? given.toString('utf8') : String(given);
  return path.resolve(text);
}

/**
 * fs.realpathSync (the JavaScript one; `.native` and the asynchronous forms are checked by Node)
 * answers only where the sandbox may read: elsewhere it would tell what exists and where symbolic
 * links point.
 */
function closeRealpath(): void {
  const permission = (process as { permission?: { has(scope: string, reference?: string): boolean } }).permission;
  const fs = requiredBuiltin<typeof Fs>('node:fs');
  const original = fs.realpathSync;
  const checked = Object.assign(
    function realpathSync(given: Fs.PathLike, options?: unknown): string | Buffer {
      const resolved = resolvedPath(given);
      if (permission !== undefined && !permission.has('fs.read', resolved)) {
        throw accessDenied('FileSystemRead', resolved);
      }
      return (original as (given: Fs.PathLike, options?: unknown) => string | Buffer)(given, options);
    },
    { native: original.native },
  );
  close(fs, 'realpathSync', checked);
}

/** Closes every door above; throws DoorStillOpenError when one stays open. Call before loading any module. */
export function closeSandboxDoors(): void {
  closeSignals();
  closeInternals();
  closeSqlite();
  closeRealpath();
}
