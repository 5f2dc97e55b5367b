/**
 * The prompts of the plugin files over MCP: `prompts/list`, `prompts/get` (an unknown prompt,
 * one whose file waits for approval, or arguments that do not fit: `-32602` naming what), and
 * `notifications/prompts/list_changed` on a real change (prompt-listing.ts; on 2026-07-28 the
 * SDK's stdio entry delivers it to the client's `subscriptions/listen` stream). Composed into
 * the server only where plugin files load.
 */
import type { GetPromptResult } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { ToolRegistry } from '../core/registry/tool-registry';
import { mcpPromptOf, announcePromptListChanges } from './prompt-listing';
import { asProtocolErrors } from './protocol-errors';
import { getPromptParams, paginatedParams } from './request-params';
import type { ServerFeature } from './server-feature';

/** The prompts feature of one server (server.ts composes it). */
export function promptsFeature(registry: ToolRegistry, listChanged: boolean): ServerFeature {
  return {
    capabilities: { prompts: { listChanged } },
    register: ({ server, logger }) => {
      server.setRequestHandler('prompts/list', { params: paginatedParams }, async (params) => {
        if (params.cursor !== undefined) {
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid params for prompts/list: params.cursor: not a cursor this server issued (it lists every prompt in one page)');
        }
        await registry.initialize();
        return { prompts: registry.prompts().map(mcpPromptOf) };
      });

      server.setRequestHandler('prompts/get', { params: getPromptParams }, async (params): Promise<GetPromptResult> => {
        const rendered = await asProtocolErrors(() => registry.getPrompt(params.name, promptArguments(params.arguments)));
        return {
          ...(rendered.description === undefined ? {} : { description: rendered.description }),
          messages: rendered.messages.map((message) => ({ role: message.role, content: { ...message.content } })),
        };
      });

      return announcePromptListChanges(registry, () => {
        if (server.transport === undefined) {
          return;
        }
        server.sendPromptListChanged().catch((error: unknown) => {
          logger.warn(`[mcp] could not send prompts/list_changed: ${String(error)}`);
        });
      });
    },
  };
}

/** `prompts/get`'s `arguments`: string values only (the MCP schema's `{ [key: string]: string }`). */
function promptArguments(value: Readonly<Record<string, unknown>> | undefined): Record<string, string> {
  const args: Record<string, string> = {};
  for (const [name, argument] of Object.entries(value ?? {})) {
    if (typeof argument !== 'string') {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params for prompts/get: params.arguments.${name}: expected string, received ${argument === null ? 'null' : typeof argument}`);
    }
    args[name] = argument;
  }
  return args;
}
