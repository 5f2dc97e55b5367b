/**
 * The tools of the registry over MCP: `tools/list` in pages (ToolListPages) from a cache rebuilt
 * only when the registry changes, `tools/call` through the registry with progress notifications
 * and cancellation, and `notifications/tools/list_changed` on a real change (on 2026-07-28 the
 * SDK's stdio entry delivers it to the client's `subscriptions/listen` stream).
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { ToolRegistry } from '../core/registry/tool-registry';
import type { Logger, ToolDefinition } from '../core/types';
import type { OutputStore } from '../core/output/output-store';
import { throttleProgress } from '../core/progress-throttle';
import { annotationsFor } from './annotations';
import { announceToolListChanges } from './list-changed';
import { paginatedParams } from './request-params';
import type { ServerFeature } from './server-feature';
import type { ToolListPages } from './tool-pages';

export interface ToolsFeatureOptions {
  readonly registry: ToolRegistry;
  readonly pages: ToolListPages;
  readonly logger: Logger;
  /** Aborts every call in flight when the server shuts down. */
  readonly shutdownSignal?: AbortSignal;
  /** Keeps large outputs whole, served as workspace-tools://output/<id> resources (serve-resources.ts). */
  readonly outputs?: OutputStore;
  /** Whether the tool list can change while the server runs; only then is `tools.listChanged` declared. */
  readonly listChanged: boolean;
}

/** `tools/list`, `tools/call` and `tools/list_changed`. */
export function toolsFeature(options: ToolsFeatureOptions): ServerFeature {
  const { registry, pages, logger } = options;
  return {
    capabilities: { tools: { listChanged: options.listChanged } },
    register: ({ server }) => {
      server.setRequestHandler('tools/list', { params: paginatedParams }, async (params) => {
        await registry.initialize();
        return pages.page(params.cursor);
      });

      // The 2-argument form: the SDK's server validates `tools/call` itself, with -32602.
      server.setRequestHandler('tools/call', async (request, ctx) => {
        const { name, arguments: input } = request.params;
        const signal = options.shutdownSignal === undefined ? ctx.mcpReq.signal : AbortSignal.any([ctx.mcpReq.signal, options.shutdownSignal]);
        const token = ctx.mcpReq._meta?.progressToken;
        const progress =
          token === undefined
            ? undefined
            : throttleProgress((message, count) => {
                ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: count, message } }).catch((error: unknown) => {
                  logger.debug(`[mcp] could not send a progress notification: ${String(error)}`);
                });
              });
        try {
          const result = await registry.call(name, input ?? {}, {
            signal,
            door: 'mcp',
            ...(options.outputs === undefined ? {} : { outputs: options.outputs }),
            ...(progress === undefined ? {} : { progress: (message: string) => progress.report(message) }),
          });
          if (result.refusal?.reason === 'unknown') {
            // A protocol error, as the MCP spec asks, that still tells the model what it can call.
            throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}. Available tools: ${result.refusal.available.join(', ') || '(none)'}.`);
          }
          const links = (result.resources ?? []).map((resource) => ({ type: 'resource_link' as const, ...resource }));
          const answer: CallToolResult = {
            content: [{ type: 'text', text: result.text }, ...links],
            ...(result.structured === undefined || result.isError ? {} : { structuredContent: result.structured }),
            isError: result.isError,
          };
          return answer;
        } finally {
          // Before the result is sent: nothing may follow it.
          progress?.close();
        }
      });

      return announceToolListChanges(registry, () => {
        if (server.transport === undefined) {
          return;
        }
        server.sendToolListChanged().catch((error: unknown) => {
          logger.warn(`[mcp] could not send tools/list_changed: ${String(error)}`);
        });
      });
    },
  };
}

/**
 * One registry tool as MCP describes it. `annotations.title` repeats `title` on purpose: clients
 * of protocol 2025-03-26 know only that one.
 */
export function toMcpTool(definition: ToolDefinition): Tool {
  const annotations = {
    ...(definition.title === undefined ? {} : { title: definition.title }),
    ...annotationsFor(definition.tags),
  };
  return {
    name: definition.name,
    ...(definition.title === undefined ? {} : { title: definition.title }),
    description: definition.description,
    inputSchema: definition.inputSchema as Tool['inputSchema'],
    ...(definition.outputSchema === undefined ? {} : { outputSchema: definition.outputSchema }),
    ...(Object.keys(annotations).length === 0 ? {} : { annotations }),
  };
}
