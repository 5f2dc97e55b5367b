/**
 * What a code tool's function gave, as the message the runner sends: its result (text cut at the
 * cap), or why it is not one (not text, not JSON), or the error it threw. Pure; part of the runner
 * (dist/code-runner.js), so Node built-ins only.
 */
import type { FromSandbox, WireError } from './protocol';

/** An error as it crosses the channel; a thrown value that is not an Error says what it was. */
export function wireError(error: unknown): WireError {
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

/** The message for what the function returned, or why it cannot be a result. */
export function resultOf(value: unknown, maxBytes: number): FromSandbox | string {
  const expected = 'return a string, or { text?: string, structured?: <JSON value>, content?: <content parts> }';
  if (typeof value === 'string') {
    return capped(value, undefined, maxBytes);
  }
  if (!isPlainObject(value)) {
    return `the function returned ${describe(value)}: ${expected}`;
  }
  const keys = Object.keys(value);
  const unknown = keys.filter((key) => key !== 'text' && key !== 'structured' && key !== 'content');
  if (unknown.length > 0 || keys.length === 0) {
    return `the function returned an object with ${keys.length === 0 ? 'no properties' : `the properties ${keys.join(', ')}`}: ${expected}`;
  }
  const { text, structured, content } = value as { text?: unknown; structured?: unknown; content?: unknown };
  if (text !== undefined && typeof text !== 'string') {
    return `"text" is ${describe(text)}: ${expected}`;
  }
  if ('structured' in value) {
    const problem = jsonProblem(structured, 'structured', new Set());
    if (problem !== undefined) {
      return `${problem}; "structured" must be a JSON value (null, boolean, finite number, string, array, plain object)`;
    }
  }
  if ('content' in value) {
    return withContent(content, text, 'structured' in value ? structured : undefined);
  }
  return capped(text ?? JSON.stringify(structured, null, 2), 'structured' in value ? structured : undefined, maxBytes);
}

/**
 * A result with content parts, as sent: a non-empty array of JSON values. What each part must be,
 * and the size of them all, the parent checks (code/result.ts): it trusts nothing from the channel,
 * and the runner can read nothing outside its own directory to check them with.
 */
function withContent(content: unknown, text: string | undefined, structured: unknown): FromSandbox | string {
  if (!Array.isArray(content) || content.length === 0) {
    return `"content" is ${describe(content)}: it must be a non-empty array of content parts`;
  }
  const problem = jsonProblem(content, 'content', new Set());
  if (problem !== undefined) {
    return `${problem}; "content" must be plain JSON parts`;
  }
  return { type: 'result', text: text ?? '', content, ...(structured === undefined ? {} : { structured }) };
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
