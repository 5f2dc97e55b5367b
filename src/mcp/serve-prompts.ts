/**
 * The prompts of the plugin files over MCP: `prompts/list`, `prompts/get` (an unknown prompt,
 * one whose file waits for approval, or arguments that do not fit: `-32602` naming what), the
 * `completion/complete` of their arguments, and `notifications/prompts/list_changed` on a real
 * change (prompt-listing.ts). Declared only where plugin files are served.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CompleteResult, GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { CompleteRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { CompletionError } from '../core/completions';
import { PromptArgumentError, PromptNotServedError } from '../core/prompts';
import type { Disposable } from '../core/registry/emitter';
import type { ToolRegistry } from '../core/registry/tool-registry';
import type { Logger } from '../core/types';
import { announcePromptListChanges, mcpPromptOf } from './prompt-listing';

/** The capabilities prompts add: `prompts` (with list_changed while watching) and `completions`. */
export function promptCapabilities(listChanged: boolean): { prompts: { listChanged: boolean }; completions: Record<string, never> } {
  return { prompts: { listChanged }, completions: {} };
}

/** Registers the prompt requests on `server`; the returned subscription sends list_changed. */
export function servePrompts(server: Server, registry: ToolRegistry, logger: Logger): Disposable {
  server.setRequestHandler(ListPromptsRequestSchema, async (request) => {
    if (request.params?.cursor !== undefined) {
      throw new McpError(ErrorCode.InvalidParams, `Invalid params for prompts/list: params.cursor: not a cursor this server issued (it lists every prompt in one page)`);
    }
    await registry.initialize();
    return { prompts: registry.prompts().map(mcpPromptOf) };
  });

  server.setRequestHandler(GetPromptRequestSchema, async (request): Promise<GetPromptResult> => {
    const rendered = await asProtocolErrors(() => registry.getPrompt(request.params.name, request.params.arguments ?? {}));
    return { ...(rendered.description === undefined ? {} : { description: rendered.description }), messages: rendered.messages.map((message) => ({ role: message.role, content: { ...message.content } })) };
  });

  server.setRequestHandler(CompleteRequestSchema, async (request, extra): Promise<CompleteResult> => {
    const { ref, argument } = request.params;
    if (ref.type !== 'ref/prompt') {
      // Resource templates complete nothing here (yet): an empty answer, as the spec allows.
      return { completion: { values: [], total: 0, hasMore: false } };
    }
    const completion = await asProtocolErrors(() => registry.completePrompt({ name: ref.name, argument: argument.name, prefix: argument.value }, extra.signal));
    return { completion: { values: [...completion.values], total: completion.total, hasMore: completion.hasMore } };
  });

  return announcePromptListChanges(registry, () => {
    if (server.transport === undefined) {
      return;
    }
    server.sendPromptListChanged().catch((error: unknown) => {
      logger.warn(`[mcp] could not send prompts/list_changed: ${String(error)}`);
    });
  });
}

/** Runs `work`; what the client must change is `-32602`, a failed completion source `-32603`, both with their message. */
async function asProtocolErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PromptNotServedError || error instanceof PromptArgumentError) {
      throw new McpError(ErrorCode.InvalidParams, error.message);
    }
    if (error instanceof CompletionError) {
      throw new McpError(ErrorCode.InternalError, `Completion failed: ${error.message}`);
    }
    throw error;
  }
}
