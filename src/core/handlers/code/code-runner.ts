/**
 * The program a code tool's sandbox runs (built to dist/code-runner.js): it reads what to run from
 * fd 3, checks that Node's permission model is on, imports the module from the approved text it
 * was sent (a data: URL, so no other file is ever loaded as code), calls its default export and
 * sends back one result or one error. Only Node's built-in modules: it runs under the permission
 * model with read access to itself and the workspace folder alone. The context it hands the module
 * is typed by types/workspace-tools.d.ts, the file users type their modules with.
 */
import { Socket } from 'node:net';
import type { FailurePhase, FromSandbox, RunMessage, ToSandbox, WireError } from './protocol';

/** Longest progress or log message sent, in characters. */
const MAX_MESSAGE_CHARS = 2000;

const channel = new Socket({ fd: 3, readable: true, writable: true });
const cancel = new AbortController();
const pendingCalls = new Map<number, (result: WorkspaceTools.ToolCallResult) => void>();
let nextCallId = 1;
let finished = false;

function send(message: FromSandbox): void {
  if (!channel.destroyed) {
    channel.write(`${JSON.stringify(message)}\n`);
  }
}

/** Sends the last message and exits once it is written: timers or sockets the module left open do not keep the process. */
function finish(message: FromSandbox, exitCode: number): void {
  if (finished) {
    return;
  }
  finished = true;
  channel.end(`${JSON.stringify(message)}\n`, () => process.exit(exitCode));
}

function fail(phase: FailurePhase, error: unknown): void {
  finish({ type: 'error', phase, error: wireError(error) }, 1);
}

function wireError(error: unknown): WireError {
  if (!(error instanceof Error)) {
    return { name: 'Error', message: `the module threw a value that is not an Error: ${describe(error)}` };
  }
  const extra = error as Error & { code?: unknown; permission?: unknown; resource?: unknown };
  return {
    name: error.name,
    message: error.message,
    ...(typeof error.stack === 'string' ? { stack: error.stack } : {}),
    ...(typeof extra.code === 'string' ? { code: extra.code } : {}),
    ...(typeof extra.permission === 'string' ? { permission: extra.permission } : {}),
    ...(typeof extra.resource === 'string' ? { resource: extra.resource } : {}),
  };
}

/** Node's permission model, as far as this program uses it. */
interface Permission {
  has(scope: string, reference?: string): boolean;
}

/** Why this process is not the sandbox it was meant to be, if it is not (a runtime that ignored the flags). */
function sandboxProblem(run: RunMessage): string | undefined {
  const permission = (process as { permission?: Permission }).permission;
  if (permission === undefined) {
    return `this runtime (${process.execPath}, Node ${process.versions.node}) did not turn on Node's permission model; the module was not run`;
  }
  const { expect } = run;
  const unreadable = expect.unreadable !== undefined && permission.has('fs.read', expect.unreadable);
  if (unreadable || permission.has('worker') || permission.has('child') !== expect.childProcess || permission.has('fs.write', run.workspaceFolder) !== expect.write) {
    return 'the permission model is on but does not have the permissions the sandbox was started with; the module was not run';
  }
  return undefined;
}

function contextFor(run: RunMessage): WorkspaceTools.CodeToolContext {
  return {
    workspaceFolder: run.workspaceFolder,
    signal: cancel.signal,
    progress: (message) => send({ type: 'progress', message: String(message).slice(0, MAX_MESSAGE_CHARS) }),
    log: (message) => send({ type: 'log', message: String(message).slice(0, MAX_MESSAGE_CHARS) }),
    callTool: (name, input = {}) =>
      new Promise((resolve) => {
        const id = nextCallId++;
        pendingCalls.set(id, resolve);
        send({ type: 'callTool', id, name: String(name), input });
      }),
  };
}

async function runModule(run: RunMessage): Promise<void> {
  const problem = sandboxProblem(run);
  if (problem !== undefined) {
    fail('sandbox', new Error(problem));
    return;
  }
  let main: unknown;
  try {
    const source = `${run.code}\n//# sourceURL=${run.url}\n`;
    const module = (await import(`data:text/javascript;base64,${Buffer.from(source, 'utf8').toString('base64')}`)) as { default?: unknown };
    main = module.default;
  } catch (error) {
    fail('load', error);
    return;
  }
  if (typeof main !== 'function') {
    fail('load', new TypeError(`the module's default export is ${describe(main)}, not a function: write \`export default async (input, context) => ...\``));
    return;
  }
  let value: unknown;
  try {
    value = await (main as WorkspaceTools.CodeTool)(run.input as Record<string, unknown>, contextFor(run));
  } catch (error) {
    fail('run', error);
    return;
  }
  const result = resultOf(value, run.maxResultBytes);
  if (typeof result === 'string') {
    fail('result', new TypeError(result));
    return;
  }
  finish(result, 0);
}

/** The message for what the function returned, or why it cannot be a result. */
function resultOf(value: unknown, maxBytes: number): FromSandbox | string {
  const expected = 'return a string, or { text?: string, structured?: <JSON value> }';
  if (typeof value === 'string') {
    return capped(value, undefined, maxBytes);
  }
  if (!isPlainObject(value)) {
    return `the function returned ${describe(value)}: ${expected}`;
  }
  const keys = Object.keys(value);
  const unknown = keys.filter((key) => key !== 'text' && key !== 'structured');
  if (unknown.length > 0 || keys.length === 0) {
    return `the function returned an object with ${keys.length === 0 ? 'no properties' : `the properties ${keys.join(', ')}`}: ${expected}`;
  }
  const { text, structured } = value as { text?: unknown; structured?: unknown };
  if (text !== undefined && typeof text !== 'string') {
    return `"text" is ${describe(text)}: ${expected}`;
  }
  if ('structured' in value) {
    const problem = jsonProblem(structured, 'structured', new Set());
    if (problem !== undefined) {
      return `${problem}; "structured" must be a JSON value (null, boolean, finite number, string, array, plain object)`;
    }
  }
  return capped(text ?? JSON.stringify(structured, null, 2), 'structured' in value ? structured : undefined, maxBytes);
}

/** The result message with its text cut at `maxBytes` (and no structured value then: it would not be whole). */
function capped(text: string, structured: unknown, maxBytes: number): FromSandbox {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= maxBytes && (structured === undefined || Buffer.byteLength(JSON.stringify(structured), 'utf8') <= maxBytes)) {
    return { type: 'result', text, ...(structured === undefined ? {} : { structured }) };
  }
  const kept = Buffer.from(text, 'utf8').subarray(0, maxBytes).toString('utf8').replace(/\uFFFD+$/, '');
  return { type: 'result', text: kept, droppedBytes: bytes - Buffer.byteLength(kept, 'utf8') };
}

/** Why `value` is not plain JSON, naming where (`structured.items[2]`), or undefined when it is. */
function jsonProblem(value: unknown, at: string, ancestors: Set<object>): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') {
    return undefined;
  }
  if (typeof value === 'number') {
    return Number.isFinite(value) ? undefined : `${at} is ${String(value)}`;
  }
  if (typeof value !== 'object') {
    return `${at} is ${describe(value)}`;
  }
  if (ancestors.has(value)) {
    return `${at} refers back to an object that contains it (a cycle)`;
  }
  if (!Array.isArray(value) && !isPlainObject(value)) {
    return `${at} is ${describe(value)}`;
  }
  ancestors.add(value);
  const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((item, index) => [`${at}[${index}]`, item]) : Object.entries(value).map(([key, item]) => [`${at}.${key}`, item]);
  for (const [where, item] of entries) {
    const problem = jsonProblem(item, where, ancestors);
    if (problem !== undefined) {
      return problem;
    }
  }
  ancestors.delete(value);
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return false;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** "undefined", "a number (42)", "a Map", "a function"... */
function describe(value: unknown): string {
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'string':
      return `a string (${JSON.stringify(value.slice(0, 40))})`;
    case 'number':
    case 'bigint':
    case 'boolean':
      return `a ${typeof value} (${String(value)})`;
    case 'symbol':
      return `a symbol (${value.toString()})`;
    case 'function':
      return 'a function';
    default: {
      if (value === null) {
        return 'null';
      }
      if (Array.isArray(value)) {
        return 'an array';
      }
      const name = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor?.name;
      return name === undefined || name === 'Object' ? 'an object' : `a ${name}`;
    }
  }
}

function onMessage(message: ToSandbox): void {
  switch (message.type) {
    case 'run':
      void runModule(message);
      return;
    case 'toolResult':
      pendingCalls.get(message.id)?.(message.result);
      pendingCalls.delete(message.id);
      return;
    case 'cancel':
      cancel.abort(new Error('the tool call was cancelled'));
      return;
  }
}

let buffered = '';
channel.setEncoding('utf8');
channel.on('data', (chunk: string) => {
  buffered += chunk;
  for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
    const line = buffered.slice(0, end);
    buffered = buffered.slice(end + 1);
    onMessage(JSON.parse(line) as ToSandbox);
  }
});
// The parent went away: nobody will read a result.
channel.on('end', () => process.exit(1));
channel.on('error', () => process.exit(1));
process.on('uncaughtException', (error) => fail('run', error));
process.on('unhandledRejection', (reason) => fail('run', reason));
