/**
 * The tools of the registry over MCP: `tools/list` in pages (ToolListPages) from a cache rebuilt
 * only when the registry changes, `tools/call` through the registry with progress notifications
 * and cancellation, and `notifications/tools/list_changed` on a real change (on 2026-07-28 the
 * SDK's stdio entry delivers it to the client's `subscriptions/listen` stream).
 */
import type { RunningCalls } from '../core/running/running-calls';
import type { ElicitInputParams, ListToolsResult, RequestId, ServerContext, Tool } from '@modelcontextprotocol/server';
import { inputRequired, inputResponse } from '@modelcontextprotocol/server';
import { withFolderProperty } from '../core/registry/call-folder';
import type { ToolRegistry } from '../core/registry/tool-registry';
import type { ElicitAnswer, Logger, ToolDefinition } from '../core/types';
import type { OutputStore } from '../core/output/output-store';
import { annotationsFor } from './annotations';
import { cannotAskReason } from './ask-client';
import type { HotRequest } from './hot-lane';
import { HAND_OVER } from './hot-lane';
import { announceToolListChanges } from './list-changed';
import type { CallToolParams } from './request-params';
import { callToolParams, paginatedParams } from './request-params';
import { requestEnded } from './request-lifetime';
import type { FeatureContext, ServerFeature } from './server-feature';
import type { CallStep } from './suspended-calls';
import { SuspendedCalls } from './suspended-calls';
import { ToolCalls, answerOf } from './tool-calls';
import type { ToolListPages } from './tool-pages';
import { mcpTaskSupport } from './tasks/task-wire';
import { taskSupportOf } from './tasks/serve-tasks';

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
  /** Lists each call while it runs (the window's tools view, `--running-file`). */
  readonly running?: RunningCalls;
}

/** `tools/list`, `tools/call` and `tools/list_changed`; the first two on the hot lane as well. */
export function toolsFeature(options: ToolsFeatureOptions): ServerFeature {
  const { registry, pages, logger } = options;
  // Shared by every instance of the server: a retry may come to another instance than the call.
  const suspended = new SuspendedCalls();
  // Shutting down cancels every call, running or waiting at a question.
  options.shutdownSignal?.addEventListener('abort', () => suspended.dispose(), { once: true });
  const calls = new ToolCalls({ registry, suspended, logger, ...(options.outputs === undefined ? {} : { outputs: options.outputs }), ...(options.running === undefined ? {} : { running: options.running }) });
  const listTools = async (cursor: string | undefined): Promise<ListToolsResult> => {
    await registry.initialize();
    return pages.page(cursor);
  };
  return {
    capabilities: { tools: { listChanged: options.listChanged } },
    register: (context) => {
      const { server, hot } = context;
      const handedOver = new Map<RequestId, CallStep & { kind: 'asking' }>();
      server.setRequestHandler('tools/list', { params: paginatedParams }, (params) => listTools(params.cursor));
      server.setRequestHandler('tools/call', { params: callToolParams }, (params, ctx) => callOverSdk(calls, context, params, ctx, handedOver.get(ctx.mcpReq.id)).finally(() => handedOver.delete(ctx.mcpReq.id)));
      hot.route('tools/list', {
        params: paginatedParams,
        members: ['cursor'],
        // A page with an outputSchema whose root is no object is wrapped for 2025-11-25 by the SDK's codec.
        handle: async (params) => {
          const page = await listTools(params.cursor);
          return page.tools.some(hasNonObjectOutput) ? HAND_OVER : page;
        },
      });
      hot.route('tools/call', {
        params: callToolParams,
        members: ['name', 'arguments'],
        // A tool that runs only as a task is refused by the tasks feature, on the SDK's path (tasks/serve-tasks.ts).
        handle: (params, request) => (taskSupportOf(registry, params.name) === 'required' ? Promise.resolve(HAND_OVER) : callOnLane(calls, context, params, request, handedOver)),
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
 * `tools/call` through the SDK: every 2026-07-28 request (a retry with the user's answer
 * included) and whatever the hot lane leaves to the SDK, among them a call the lane started that
 * asks a question (`handed`: its question is asked from here, by the SDK's shim on 2025-11-25).
 */
async function callOverSdk(calls: ToolCalls, { server, era }: FeatureContext, params: CallToolParams, ctx: ServerContext, handed: (CallStep & { kind: 'asking' }) | undefined): Promise<ReturnType<typeof answerOf> | ReturnType<typeof inputRequired>> {
  const progress = calls.progressOf(ctx.mcpReq._meta?.progressToken, (notification) => ctx.mcpReq.notify({ method: 'notifications/progress', params: notification }));
  try {
    const request = { signal: ctx.mcpReq.signal, progress, cannotAsk: cannotAskReason(server, era, ctx.mcpReq.envelope) };
    const state = ctx.mcpReq.requestState<string>();
    const step = handed ?? (state === undefined ? await calls.start(params.name, params.arguments ?? {}, request) : await calls.resume(state, params.name, answerIn(ctx), request));
    if (step.kind === 'done') {
      await progress?.settle();
      return answerOf(params.name, step.result);
    }
    // Asked in both revisions alike: an input_required result on 2026-07-28, which the SDK's
    // legacy shim turns into elicitation/create on 2025-11-25; the retry resumes the call.
    if (era === 'legacy') {
      // The shim asks inside this request: once it has ended, no answer will come.
      requestEnded(ctx).addEventListener('abort', () => calls.abandon(step.token, 'the question was not answered: the call was cancelled, or the client failed to answer'), { once: true });
    }
    const { message, requestedSchema } = step.request;
    return inputRequired({ inputRequests: { [QUESTION]: inputRequired.elicit({ message, requestedSchema: requestedSchema as ElicitInputParams['requestedSchema'] }) }, requestState: step.token });
  } finally {
    // Before the result is sent: nothing may follow it.
    progress?.close();
  }
}

/**
 * `tools/call` on the hot lane (2025-11-25): the call runs here, and its result is answered from
 * here. A call that asks the user is handed over to the SDK at its question (`handedOver`, read
 * by callOverSdk for the same request), whose shim asks the client and resumes it.
 */
async function callOnLane(calls: ToolCalls, { server }: FeatureContext, params: CallToolParams, request: HotRequest, handedOver: Map<RequestId, CallStep & { kind: 'asking' }>): Promise<ReturnType<typeof answerOf> | typeof HAND_OVER> {
  const progress = calls.progressOf(request.progressToken, (notification) => request.notify('notifications/progress', notification));
  try {
    const step = await calls.start(params.name, params.arguments ?? {}, { signal: request.signal, progress, cannotAsk: cannotAskReason(server, 'legacy', undefined) });
    if (step.kind === 'done') {
      await progress?.settle();
      return answerOf(params.name, step.result);
    }
    if (request.signal.aborted) {
      calls.abandon(step.token, 'the call was cancelled');
    } else {
      handedOver.set(request.id, step);
    }
    return HAND_OVER;
  } finally {
    progress?.close();
  }
}

/** The answer a retried call carries: the user's, or cancel when the client sent none. */
function answerIn(ctx: ServerContext): ElicitAnswer {
  const response = inputResponse(ctx.mcpReq.inputResponses, QUESTION);
  return response.kind === 'elicit' ? { action: response.action, ...(response.content === undefined ? {} : { content: response.content as NonNullable<ElicitAnswer['content']> }) } : { action: 'cancel' };
}

/** Whether a tool's outputSchema has a root that is no object (the 2025-11-25 codec wraps those). */
function hasNonObjectOutput(tool: Tool): boolean {
  return tool.outputSchema !== undefined && (tool.outputSchema as Record<string, unknown>)['type'] !== 'object';
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
    // 2025-11-25 tasks (tasks/serve-tasks.ts); the SDK leaves it out on 2026-07-28, where the server decides.
    execution: { taskSupport: mcpTaskSupport(definition.task?.support ?? 'optional') },
  };
}
