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
import { setTimeout as wait } from 'node:timers/promises';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';
import { SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
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

export class ListenStreams implements TransportObserver {
  /** Listen requests the router has not answered yet. */
  private readonly requested = new Set<RequestId>();

  constructor(private readonly listened: ListenedResources) {}

  // Every message of the connection passes here, so the checks read fields instead of running the
  // SDK's isJSONRPC* guards: those parse the whole message with zod (a 10 KB result each time),
  // which measured ~10 µs of server CPU per call.
  inbound(message: JSONRPCMessage): void {
    const method = methodOf(message);
    if (method === 'subscriptions/listen') {
      const id = requestIdOf(fieldOf(message, 'id'));
      if (id !== undefined) {
        this.requested.add(id);
      }
    } else if (method === 'notifications/cancelled') {
      const id = requestIdOf(asRecord(fieldOf(message, 'params'))?.['requestId']);
      if (id !== undefined) {
        this.requested.delete(id);
        this.listened.close(id);
      }
    }
  }

  outbound(message: JSONRPCMessage): Promise<void> | undefined {
    const method = methodOf(message);
    if (method === 'notifications/subscriptions/acknowledged') {
      const params = asRecord(fieldOf(message, 'params'));
      const id = requestIdOf(asRecord(params?.['_meta'])?.[SUBSCRIPTION_ID_META_KEY]);
      if (id !== undefined && this.requested.delete(id)) {
        // The acknowledgement waits until the named files are watched: a client that edits one
        // right after it must get the update (at most ACKNOWLEDGE_WAIT_MS, so a slow first load
        // cannot hold the stream open unanswered).
        return Promise.race([this.listened.open(id, resourceSubscriptionsOf(params?.['notifications'])), wait(ACKNOWLEDGE_WAIT_MS, undefined, { ref: false })]);
      }
    } else if (method === undefined) {
      // A response. An error: the stream was refused. A result: the router closed it (server shutdown).
      const id = requestIdOf(fieldOf(message, 'id'));
      if (id !== undefined) {
        this.requested.delete(id);
        this.listened.close(id);
      }
    }
    return undefined;
  }

  closed(): void {
    this.requested.clear();
    this.listened.clear();
  }
}

/** The message's method (a request or notification), undefined for a response. */
function methodOf(message: JSONRPCMessage): string | undefined {
  const method = fieldOf(message, 'method');
  return typeof method === 'string' ? method : undefined;
}

function fieldOf(message: JSONRPCMessage, name: string): unknown {
  return (message as unknown as Record<string, unknown>)[name];
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
