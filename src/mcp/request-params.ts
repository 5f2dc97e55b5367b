/**
 * The params of the requests this server registers with the SDK's 3-argument
 * `setRequestHandler(method, { params }, handler)`: the SDK checks them against these Standard
 * Schemas and answers `-32602 Invalid params for <method>: <what, where>` itself. Its 2-argument
 * form answers params its own schema rejects with `-32603` and a raw dump (typescript-sdk #2284,
 * still so in 2.4.0); `tools/call` is the exception, which the SDK's server checks first, with
 * `-32602`. The schemas check only what the handlers read (flat objects of strings): `_meta` and
 * anything a newer revision adds pass through. Hand-written, not Ajv: they run before the
 * handshake's answer, and their messages name the field as the client sent it (`params.level`).
 */
import type { LoggingLevel, StandardSchemaV1 } from '@modelcontextprotocol/server';
import { specTypeSchemas } from '@modelcontextprotocol/server';

/** The log levels of `logging/setLevel`, least severe first (MCP spec, RFC 5424). */
export const LOG_LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** What one param may be: a string (of one of `oneOf`, when given), or an object. */
interface ParamRule {
  readonly type: 'string' | 'object';
  readonly required?: boolean;
  readonly oneOf?: readonly string[];
}

/** A Standard Schema of an object with `rules` for some of its members. */
export function paramsSchema<T>(rules: Readonly<Record<string, ParamRule>>): StandardSchemaV1<T, T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'workspace-tools',
      validate: (value) => {
        const params = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
        const issues = Object.entries(rules).flatMap(([name, rule]) => {
          const problem = problemOf(params[name], rule);
          return problem === undefined ? [] : [{ message: problem, path: ['params', name] }];
        });
        return issues.length === 0 ? { value: params as T } : { issues };
      },
    },
  };
}

function problemOf(value: unknown, rule: ParamRule): string | undefined {
  if (value === undefined) {
    return rule.required === true ? `required ${rule.type} missing` : undefined;
  }
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  if (type !== rule.type) {
    return `expected ${rule.type}, received ${type}`;
  }
  if (rule.oneOf !== undefined && !rule.oneOf.includes(value as string)) {
    return `expected one of ${rule.oneOf.map((option) => JSON.stringify(option)).join(', ')}, received ${JSON.stringify(value).slice(0, 40)}`;
  }
  return undefined;
}

/**
 * The message of a -32602 answer, as the SDK words it for the schemas of its 3-argument
 * `setRequestHandler`: `Invalid params for <method>: <path>: <problem>, ...`.
 */
export function invalidParamsMessage(method: string, issues: readonly StandardSchemaV1.Issue[]): string {
  const problems = issues.map((issue) => {
    const path = (issue.path ?? []).map((segment) => String(typeof segment === 'object' ? segment.key : segment)).join('.');
    return path === '' ? issue.message : `${path}: ${issue.message}`;
  });
  return `Invalid params for ${method}: ${problems.join(', ')}`;
}

/** What a `tools/call` handler reads. */
export interface CallToolParams {
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
}

/**
 * `tools/call`: a string `name` and, when given, an object of `arguments`. Checked by hand; only a
 * request that fails is worded by the SDK's own schema of the params (zod's words, every issue,
 * e.g. `params.name: Invalid input: expected string, received undefined`), so the answer names
 * the field as the SDK's schema does, on either path (hot-lane.ts, or server.ts in front of the
 * SDK's own check, which would answer with its schema's raw issue dump).
 */
export const callToolParams: StandardSchemaV1<CallToolParams, CallToolParams> = {
  '~standard': {
    version: 1,
    vendor: 'workspace-tools',
    validate: (value) => {
      const params = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
      const input = params['arguments'];
      if (typeof params['name'] === 'string' && (input === undefined || (typeof input === 'object' && input !== null && !Array.isArray(input)))) {
        return { value: params as unknown as CallToolParams };
      }
      const outcome = specTypeSchemas.CallToolRequestParams['~standard'].validate(value);
      const issues = outcome instanceof Promise || outcome.issues === undefined ? [{ message: 'expected { name: string, arguments?: object }', path: [] }] : outcome.issues;
      return { issues: issues.map((issue) => ({ message: issue.message, path: ['params', ...(issue.path ?? [])] })) };
    },
  },
};

/** `tools/list`, `resources/list`: an optional opaque cursor. */
export const paginatedParams = paramsSchema<{ cursor?: string }>({ cursor: { type: 'string' } });

/** `resources/read`. */
export const readResourceParams = paramsSchema<{ uri: string }>({ uri: { type: 'string', required: true } });

/** `logging/setLevel`. */
export const setLevelParams = paramsSchema<{ level: LoggingLevel }>({ level: { type: 'string', required: true, oneOf: LOG_LEVELS } });

/** `initialize` (the SDK serves it; server.ts checks these first). */
export const initializeParams = paramsSchema<Record<string, unknown>>({
  protocolVersion: { type: 'string', required: true },
  capabilities: { type: 'object', required: true },
  clientInfo: { type: 'object', required: true },
});

/** `prompts/get` (each argument's value is checked to be a string by serve-prompts.ts). */
export const getPromptParams = paramsSchema<{ name: string; arguments?: Record<string, unknown> }>({ name: { type: 'string', required: true }, arguments: { type: 'object' } });

/** `completion/complete` (the members of `ref` and `argument` are checked by nestedStrings). */
export const completeParams = nestedStrings(
  paramsSchema<{ ref: { type: string; name?: string; uri?: string }; argument: { name: string; value: string } }>({ ref: { type: 'object', required: true }, argument: { type: 'object', required: true } }),
  { ref: ['type'], argument: ['name', 'value'] },
);

/** `schema`, and then each listed member of each named object param must be a string. */
function nestedStrings<T>(schema: StandardSchemaV1<T, T>, members: Readonly<Record<string, readonly string[]>>): StandardSchemaV1<T, T> {
  return {
    '~standard': {
      ...schema['~standard'],
      validate: (value) => {
        const outcome = schema['~standard'].validate(value);
        if (outcome instanceof Promise || outcome.issues !== undefined) {
          return outcome;
        }
        const params = outcome.value as Record<string, Record<string, unknown>>;
        const issues = Object.entries(members).flatMap(([name, keys]) =>
          keys.flatMap((key) => {
            const problem = problemOf(params[name]?.[key], { type: 'string', required: true });
            return problem === undefined ? [] : [{ message: problem, path: ['params', name, key] }];
          }),
        );
        return issues.length === 0 ? outcome : { issues };
      },
    },
  };
}
