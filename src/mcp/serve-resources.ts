/**
 * The MCP door of resources: `resources/list`, `resources/templates/list`, `resources/read`,
 * `resources/subscribe` and `resources/unsubscribe` over the core's ResourceService, and its
 * `notifications/resources/updated` and `notifications/resources/list_changed`. The rules live
 * in src/core/resources; here they only get their JSON-RPC shape and error codes.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { OutputStore } from '../core/output/output-store';
import { ResourceInputError, ResourceReadError } from '../core/resources/read-resource';
import { ResourceService, UnknownResourceError } from '../core/resources/resource-service';
import type { ResourceSource } from '../core/resources/resource-service';
import type { ExecutionLimits, Logger } from '../core/types';

/** JSON-RPC error of a resource that does not exist (MCP spec, resources). */
export const RESOURCE_NOT_FOUND = -32002;

export interface ServeResourcesOptions {
  readonly source: ResourceSource;
  readonly outputs?: OutputStore;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly limits: () => ExecutionLimits;
  readonly logger: Logger;
  /** Whether `notifications/resources/list_changed` is sent (declared as `listChanged`). */
  readonly listChanged: boolean;
}

/** The `resources` capability this door serves. */
export function resourceCapabilities(listChanged: boolean): { subscribe: true; listChanged: boolean } {
  return { subscribe: true, listChanged };
}

/** Registers the resource requests on `server`; dispose the result when the server closes. */
export function serveResources(server: Server, options: ServeResourcesOptions): ResourceService {
  const { logger } = options;
  const service = new ResourceService({
    source: options.source,
    ...(options.outputs === undefined ? {} : { outputs: options.outputs }),
    env: options.env,
    limits: options.limits,
    logger,
    onUpdated: (uri) => {
      if (server.transport !== undefined) {
        server.sendResourceUpdated({ uri }).catch((error: unknown) => logger.warn(`[mcp] could not send resources/updated for ${uri}: ${String(error)}`));
      }
    },
    onListChanged: () => {
      if (options.listChanged && server.transport !== undefined) {
        server.sendResourceListChanged().catch((error: unknown) => logger.warn(`[mcp] could not send resources/list_changed: ${String(error)}`));
      }
    },
  });
  server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => ({ resources: await service.list(extra.signal) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: await service.templates() }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const { uri } = request.params;
    try {
      return { contents: [await service.read(uri, extra.signal)] };
    } catch (error) {
      throw protocolError(error, uri);
    }
  });
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    try {
      await service.subscribe(request.params.uri);
      return {};
    } catch (error) {
      throw protocolError(error, request.params.uri);
    }
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    service.unsubscribe(request.params.uri);
    return {};
  });
  return service;
}

/** An unknown URI is -32002, a value the resource does not take -32602, a failed read -32603. */
function protocolError(error: unknown, uri: string): unknown {
  if (error instanceof UnknownResourceError) {
    return new McpError(RESOURCE_NOT_FOUND, error.message, { uri });
  }
  if (error instanceof ResourceInputError) {
    return new McpError(ErrorCode.InvalidParams, error.message, { uri });
  }
  if (error instanceof ResourceReadError) {
    return new McpError(ErrorCode.InternalError, error.message, { uri });
  }
  return error;
}
