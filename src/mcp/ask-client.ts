/**
 * Whether the client of a `tools/call` can be asked a question (MCP form elicitation): it must
 * have declared the elicitation capability, by form (an empty `elicitation: {}` means form). On
 * 2025-11-25 the client declared it when it connected; on 2026-07-28 each request carries the
 * client's capabilities in its `_meta` envelope.
 */
import type { ClientCapabilities, Server } from '@modelcontextprotocol/server';
import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';
import type { ProtocolEra } from './server-feature';

/** Why this request's client cannot be asked, or undefined when it can; `envelope` is the request's (2026-07-28). */
export function cannotAskReason(server: Server, era: ProtocolEra, envelope: unknown): string | undefined {
  const capabilities =
    era === 'legacy' ? server.getClientCapabilities() : ((envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined);
  const elicitation = capabilities?.elicitation as Record<string, unknown> | undefined;
  if (elicitation === undefined) {
    return era === 'legacy' ? 'the MCP client did not declare the elicitation capability when it connected' : 'the MCP client did not declare the elicitation capability in this request';
  }
  const byForm = elicitation['form'] !== undefined || Object.keys(elicitation).length === 0;
  return byForm ? undefined : 'the MCP client declared elicitation, but not by form';
}
