/**
 * `completion/complete` over MCP: the values that complete a prompt's argument (`ref/prompt`)
 * or a resource template's variable (`ref/resource`), from the enum, workspace files or command
 * the plugin file declares (core/completions). A ref the server does not serve, or an argument
 * it does not have, is `-32602`; a completion source that fails (its command exits non-zero,
 * times out) is `-32603` with the reason.
 */
import type { CompleteResult } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { ToolRegistry } from '../core/registry/tool-registry';
import { asProtocolErrors } from './protocol-errors';
import { completeParams } from './request-params';
import type { ServerFeature } from './server-feature';

/** The completions feature of one server (server.ts composes it where plugin files load). */
export function completionsFeature(registry: ToolRegistry): ServerFeature {
  return {
    capabilities: { completions: {} },
    register: ({ server }) => {
      server.setRequestHandler('completion/complete', { params: completeParams }, async (params, ctx): Promise<CompleteResult> => {
        const { ref, argument } = params;
        const signal = ctx.mcpReq.signal;
        const completion = await asProtocolErrors(() => {
          if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
            return registry.completePrompt({ name: ref.name, argument: argument.name, prefix: argument.value }, signal);
          }
          if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
            return registry.completeResourceVariable({ uriTemplate: ref.uri, variable: argument.name, prefix: argument.value }, signal);
          }
          throw new ProtocolError(
            ProtocolErrorCode.InvalidParams,
            'Invalid params for completion/complete: params.ref: expected { "type": "ref/prompt", "name": string } or { "type": "ref/resource", "uri": string }',
          );
        });
        return { completion: { values: [...completion.values], total: completion.total, hasMore: completion.hasMore } };
      });
      return undefined;
    },
  };
}
