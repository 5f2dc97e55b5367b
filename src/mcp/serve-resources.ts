/**
 * The MCP door of resources, one feature over two sources (the kept large outputs and the plugin
 * files' resources, core/resources/resource-service.ts): `resources/list`,
 * `resources/templates/list`, `resources/read`, and subscriptions. On 2025-11-25 a client
 * subscribes with `resources/subscribe` and `resources/unsubscribe` and gets
 * `notifications/resources/updated` for the URIs it subscribed to. On 2026-07-28 there is no
 * `resources/subscribe`: the SDK's stdio entry answers `subscriptions/listen` and delivers
 * `notifications/resources/updated` to the streams that asked for that URI, so a modern instance
 * subscribes to the URIs the connection's open listen streams name (listen-streams.ts, any
 * served URI: a file, one file of a glob, a template's URI) and releases them as streams end.
 * `notifications/resources/list_changed` only when the listed resources changed.
 */
import type { ReadResourceResult } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from '@modelcontextprotocol/server';
import type { OutputStore } from '../core/output/output-store';
import { ResourceInputError, ResourceReadError } from '../core/resources/read-resource';
import type { ResourceSource } from '../core/resources/resource-service';
import { ResourceService, UnknownResourceError } from '../core/resources/resource-service';
import type { ListenedResources } from '../core/resources/listened-resources';
import { subscribeToListened } from '../core/resources/listened-resources';
import type { ExecutionLimits } from '../core/types';
import { paginatedParams, readResourceParams } from './request-params';
import type { ServerFeature } from './server-feature';

export interface ResourcesFeatureOptions {
  /** The plugin files (the tool registry); absent: only the kept outputs are served. */
  readonly source?: ResourceSource;
  readonly outputs?: OutputStore;
  /** What a command resource runs with. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly limits: () => ExecutionLimits;
  /** Whether the list can change while the server runs (`resources.listChanged` is declared only then). */
  readonly listChanged: boolean;
  /** The URIs the connection's 2026-07-28 listen streams name: what a modern instance subscribes to. */
  readonly listened?: ListenedResources;
}

/** No plugin files: the kept outputs alone. */
const NO_FILES: ResourceSource = { files: () => [], initialize: () => Promise.resolve(), onDidChange: () => ({ dispose: () => undefined }) };

/** The resources feature of one server (server.ts composes it). */
export function resourcesFeature(options: ResourcesFeatureOptions): ServerFeature {
  return {
    capabilities: { resources: { subscribe: true, listChanged: options.listChanged } },
    register: ({ server, era, logger, hot }) => {
      // One service per instance: subscriptions belong to one connection.
      const service = new ResourceService({
        source: options.source ?? NO_FILES,
        ...(options.outputs === undefined ? {} : { outputs: options.outputs }),
        env: options.env,
        limits: options.limits,
        logger,
        onUpdated: (uri) => {
          logger.debug(`[mcp] resource ${uri} changed (${era} instance, ${server.transport === undefined ? 'not connected' : 'connected'})`);
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
      server.setRequestHandler('resources/list', { params: paginatedParams }, async (_params, ctx) => ({ resources: await service.list(ctx.mcpReq.signal) }));
      server.setRequestHandler('resources/templates/list', { params: paginatedParams }, async () => ({ resourceTemplates: await service.templates() }));
      const read = async (uri: string, signal: AbortSignal): Promise<{ contents: [ReadResourceResult['contents'][number]] }> => {
        try {
          return { contents: [await service.read(uri, signal)] };
        } catch (error) {
          throw protocolError(error, uri);
        }
      };
      server.setRequestHandler('resources/read', { params: readResourceParams }, (params, ctx) => read(params.uri, ctx.mcpReq.signal));
      hot.route('resources/read', { params: readResourceParams, members: ['uri'], handle: (params, request) => read(params.uri, request.signal) });
      if (era === 'modern') {
        // No resources/subscribe on 2026-07-28: the connection's listen streams say what to watch.
        const following = options.listened === undefined ? undefined : subscribeToListened(service, options.listened, logger, options.source ?? NO_FILES);
        return {
          dispose: () => {
            following?.dispose();
            service.dispose();
          },
        };
      }
      server.setRequestHandler('resources/subscribe', { params: readResourceParams }, async (params) => {
        try {
          await service.subscribe(params.uri);
          return {};
        } catch (error) {
          throw protocolError(error, params.uri);
        }
      });
      server.setRequestHandler('resources/unsubscribe', { params: readResourceParams }, (params) => {
        service.unsubscribe(params.uri);
        return {};
      });
      return service;
    },
  };
}

/**
 * An unknown URI is the SDK's resource-not-found (`-32602` with `data.uri` on both revisions, as
 * 2026-07-28 requires), a value the resource does not take `-32602`, a failed read `-32603`.
 */
function protocolError(error: unknown, uri: string): unknown {
  if (error instanceof UnknownResourceError) {
    return new ResourceNotFoundError(uri, error.message);
  }
  if (error instanceof ResourceInputError) {
    return new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, { uri });
  }
  if (error instanceof ResourceReadError) {
    return new ProtocolError(ProtocolErrorCode.InternalError, error.message, { uri });
  }
  return error;
}
