/**
 * Requests with invalid params are answered `-32602 Invalid params`, naming what was wrong. The
 * SDK (1.32.2, typescript-sdk #2284) answers them `-32603 Internal error` with a raw dump of its
 * schema errors, which tells a client the server broke. The guard checks each request the server
 * serves against the SDK's own schema for it before the SDK sees it, so nothing valid is refused
 * that the SDK would take, and a method the server does not serve still gets `-32601`.
 */
import type { JSONRPCError, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** One problem a schema found: where (a path into the request) and what. */
interface SchemaIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** A request schema as the guard uses it (the SDK's zod schemas have this shape). */
export interface RequestSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: readonly SchemaIssue[] } };
}

/** Decides whether a message is refused, and with which answer. */
export type RequestGuard = (message: JSONRPCMessage) => JSONRPCError | undefined;

/** Longest part of the problems quoted back (a huge invalid request can have many). */
const MAX_DETAIL_CHARS = 500;

/** The SDK's schemas of the requests this server serves (`resources`: the output resources; `prompts`: prompts and completions). */
export function servedRequestSchemas(served: { readonly resources: boolean; readonly prompts?: boolean }): ReadonlyMap<string, RequestSchema> {
  return new Map<string, RequestSchema>([
    ['initialize', InitializeRequestSchema],
    ['ping', PingRequestSchema],
    ['tools/list', ListToolsRequestSchema],
    ['tools/call', CallToolRequestSchema],
    ['logging/setLevel', SetLevelRequestSchema],
    ...(served.resources
      ? ([
          ['resources/list', ListResourcesRequestSchema],
          ['resources/read', ReadResourceRequestSchema],
        ] as const)
      : []),
    ...(served.prompts === true
      ? ([
          ['prompts/list', ListPromptsRequestSchema],
          ['prompts/get', GetPromptRequestSchema],
          ['completion/complete', CompleteRequestSchema],
        ] as const)
      : []),
  ]);
}

/** A guard that refuses requests of the mapped methods whose params their schema rejects. */
export function invalidParamsGuard(schemas: ReadonlyMap<string, RequestSchema>): RequestGuard {
  return (message) => {
    if (!('method' in message) || !('id' in message)) {
      return undefined;
    }
    const outcome = schemas.get(message.method)?.safeParse(message);
    if (outcome === undefined || outcome.success) {
      return undefined;
    }
    return {
      jsonrpc: '2.0',
      id: message.id,
      error: { code: ErrorCode.InvalidParams, message: `Invalid params for ${message.method}: ${describeIssues(outcome.error.issues)}` },
    };
  };
}

/** `params.level: Invalid option: expected one of ...; params.name: ...`, cut at MAX_DETAIL_CHARS. */
function describeIssues(issues: readonly SchemaIssue[]): string {
  const text = issues.map((issue) => `${issue.path.length === 0 ? 'request' : issue.path.map(String).join('.')}: ${issue.message}`).join('; ');
  return text.length <= MAX_DETAIL_CHARS ? text : `${text.slice(0, MAX_DETAIL_CHARS)}…`;
}
