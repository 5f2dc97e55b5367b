/**
 * The tools of the registry over MCP: `tools/list` in pages (ToolListPages) from a cache rebuilt
 * only when the registry changes, `tools/call` through the registry with progress notifications
 * and cancellation, and `notifications/tools/list_changed` on a real change (on 2026-07-28 the
 * SDK's stdio entry delivers it to the client's `subscriptions/listen` stream).
 */
import type { ElicitInputParams, ServerContext, Tool } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode, inputRequired, inputResponse } from '@modelcontextprotocol/server';
import { cannotAskError } from '../core/tool-errors';
import { notLoadedText } from '../core/registry/call-pipeline';
import { withFolderProperty } from '../core/registry/call-folder';
import type { ToolRegistry } from '../core/registry/tool-registry';
import type { ElicitAnswer, Logger, ToolDefinition } from '../core/types';
import type { OutputStore } from '../core/output/output-store';
import { throttleProgress } from '../core/progress-throttle';
import { annotationsFor } from './annotations';
import { cannotAskReason } from './ask-client';
import { toCallToolResult } from './call-result';
import { announceToolListChanges } from './list-changed';
import { paginatedParams } from './request-params';
import { requestEnded } from './request-lifetime';
import type { ServerFeature } from './server-feature';
import type { CallStep } from './suspended-calls';
import { SuspendedCalls } from './suspended-calls';
import type { ToolListPages } from './tool-pages';

/** The key of a call's question in `inputRequests` and `inputResponses` (one question at a time). */
const QUESTION = 'question';

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
  // Shared by every instance of the server: a retry may come to another instance than the call.
  const suspended = new SuspendedCalls();
  options.shutdownSignal?.addEventListener('abort', () => suspended.dispose(), { once: true });
  return {
    capabilities: { tools: { listChanged: options.listChanged } },
    register: ({ server, era }) => {
      /** The answer a retried call carries: the user's, or cancel when the client sent none. */
      const resumed = (state: string, name: string, ctx: ServerContext, report: ((message: string) => void) | undefined): Promise<CallStep> => {
        const response = inputResponse(ctx.mcpReq.inputResponses, QUESTION);
        const answer: ElicitAnswer = response.kind === 'elicit' ? { action: response.action, ...(response.content === undefined ? {} : { content: response.content as NonNullable<ElicitAnswer['content']> }) } : { action: 'cancel' };
        const step = suspended.resume(state, name, answer, ctx.mcpReq.signal, report);
        if (step === undefined) {
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No call of "${name}" waits for this answer (it was answered already, waited too long, or belongs to another tool); call the tool again.`);
        }
        return step;
      };
      server.setRequestHandler('tools/list', { params: paginatedParams }, async (params) => {
        await registry.initialize();
        return pages.page(params.cursor);
      });

      // The 2-argument form: the SDK's server validates `tools/call` itself, with -32602.
      server.setRequestHandler('tools/call', async (request, ctx) => {
        const { name, arguments: input } = request.params;
        const signal = ctx.mcpReq.signal;
        const token = ctx.mcpReq._meta?.progressToken;
        const progress =
          token === undefined
            ? undefined
            : throttleProgress((message, count) => {
                ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: count, message } }).catch((error: unknown) => {
                  logger.debug(`[mcp] could not send a progress notification: ${String(error)}`);
                });
              });
        const report = progress === undefined ? undefined : (message: string): void => progress.report(message);
        try {
          const state = ctx.mcpReq.requestState<string>();
          const step =
            state === undefined
              ? await suspended.start(
                  name,
                  (ask, callSignal, callProgress) => {
                    const reason = cannotAskReason(server, era, ctx);
                    return registry.call(name, input ?? {}, {
                      signal: options.shutdownSignal === undefined ? callSignal : AbortSignal.any([callSignal, options.shutdownSignal]),
                      door: 'mcp',
                      ...(options.outputs === undefined ? {} : { outputs: options.outputs }),
                      progress: callProgress,
                      ask: reason === undefined ? ask : () => Promise.reject(cannotAskError(reason)),
                    });
                  },
                  signal,
                  report,
                )
              : await resumed(state, name, ctx, report);
          if (step.kind === 'asking') {
            // Asked in both revisions alike: an input_required result on 2026-07-28, which the
            // SDK's legacy shim turns into elicitation/create on 2025-11-25; the retry resumes the call.
            if (era === 'legacy') {
              // The shim asks inside this request: once it has ended, no answer will come.
              abandonAtRequestEnd(suspended, step.token, ctx);
            }
            const { message, requestedSchema } = step.request;
            return inputRequired({ inputRequests: { [QUESTION]: inputRequired.elicit({ message, requestedSchema: requestedSchema as ElicitInputParams['requestedSchema'] }) }, requestState: step.token });
          }
          const { result } = step;
          if (result.refusal?.reason === 'unknown') {
            // A protocol error, as the MCP spec asks, that still tells the model what it can call.
            const { available, notLoaded } = result.refusal;
            throw new ProtocolError(ProtocolErrorCode.InvalidParams, notLoaded === undefined ? `Unknown tool: ${name}. Available tools: ${available.join(', ') || '(none)'}.` : notLoadedText(name, notLoaded));
          }
          return toCallToolResult(result);
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

/** On 2025-11-25: the suspended call of `token` is cancelled when its request ends without resuming it. */
function abandonAtRequestEnd(suspended: SuspendedCalls, token: string, ctx: ServerContext): void {
  requestEnded(ctx).addEventListener('abort', () => suspended.abandon(token, 'the question was not answered: the call was cancelled, or the client failed to answer'), { once: true });
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
    ...(definition.outputSchema === undefined ? {} : { outputSchema: withFolderProperty(definition.outputSchema) }),
    ...(Object.keys(annotations).length === 0 ? {} : { annotations }),
  };
}
