/**
 * Follows the 2026-07-28 `subscriptions/listen` streams of the stdio connection from the messages
 * it carries, because the SDK's `serveStdio` answers them itself and the server instance never
 * sees them: a listen request, then the router's `notifications/subscriptions/acknowledged`
 * stamped with its id, opens a stream (the acknowledgement's filter is what the router honours
 * and filters `notifications/resources/updated` by); an error answer instead is a refused stream
 * (over the router's maximum, a bad envelope, a legacy connection), which watches nothing. A
 * `notifications/cancelled` naming it, the router's closing result, or the connection closing
 * ends it. What the streams name is kept in core (ListenedResources), which the modern
 * instance's resources follow (serve-resources.ts).
 */
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';
import { SUBSCRIPTION_ID_META_KEY, isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResponse } from '@modelcontextprotocol/server';
import type { ListenedResources } from '../core/resources/listened-resources';

/** What ToolListTransport reports of the connection (see server.ts). */
export interface TransportObserver {
  inbound(message: JSONRPCMessage): void;
  /** A promise holds `message` back until it settles (the transport writes it then). */
  outbound(message: JSONRPCMessage): Promise<void> | undefined;
  closed(): void;
}

/** The longest a stream's acknowledgement waits for its files to be watched. */
const ACKNOWLEDGE_WAIT_MS = 5_000;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

export class ListenStreams implements TransportObserver {
  /** Listen requests the router has not answered yet. */
  private readonly requested = new Set<RequestId>();

  constructor(private readonly listened: ListenedResources) {}

  inbound(message: JSONRPCMessage): void {
    if (isJSONRPCRequest(message) && message.method === 'subscriptions/listen') {
      this.requested.add(message.id);
    } else if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      const id = requestIdOf(message.params?.['requestId']);
      if (id !== undefined) {
        this.requested.delete(id);
        this.listened.close(id);
      }
    }
  }

  outbound(message: JSONRPCMessage): Promise<void> | undefined {
    if (isJSONRPCNotification(message) && message.method === 'notifications/subscriptions/acknowledged') {
      const params = message.params;
      const id = requestIdOf(asRecord(params?.['_meta'])?.[SUBSCRIPTION_ID_META_KEY]);
      if (id !== undefined && this.requested.delete(id)) {
        // The acknowledgement waits until the named files are watched: a client that edits one
        // right after it must get the update (at most ACKNOWLEDGE_WAIT_MS, so a slow first load
        // cannot hold the stream open unanswered).
        return Promise.race([this.listened.open(id, resourceSubscriptionsOf(params?.['notifications'])), delay(ACKNOWLEDGE_WAIT_MS)]);
      }
    } else if (isJSONRPCResponse(message) && message.id !== undefined) {
      // An error: the stream was refused. A result: the router closed it (server shutdown).
      this.requested.delete(message.id);
      this.listened.close(message.id);
    }
    return undefined;
  }

  closed(): void {
    this.requested.clear();
    this.listened.clear();
  }
}

function requestIdOf(value: unknown): RequestId | undefined {
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/** The honoured filter's `resourceSubscriptions`: the strings in it (none when absent). */
function resourceSubscriptionsOf(filter: unknown): string[] {
  const uris = asRecord(filter)?.['resourceSubscriptions'];
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === 'string') : [];
}
