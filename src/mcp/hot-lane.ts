/**
 * The hot lane: the requests a session makes most (`tools/call`, `tools/list`, `resources/read`,
 * `ping`) answered straight from the wire on a 2025-11-25 connection, without the SDK's dispatch.
 * The v2 SDK checks every request and result against its zod schemas over and over (the
 * transport parses each message, the protocol tests it against four message schemas, the stdio
 * entry twice more, the tools/call wrapper parses the request twice and the result once, and each
 * answer is tested again on its way out): with a 10 KB read that was about a third of a call's
 * server time, and no option turns it off (BENCHMARKS.md, the upstream report). Here a request is
 * checked once, by hand, for exactly what its handler reads, and answered as the SDK would answer
 * it: the same result, the same `-32602 Invalid params for <method>: <field>: <problem>` (the
 * same params schemas the SDK path runs, request-params.ts), the same error codes and data
 * (ProtocolError's, -32002 sent as -32602 as the 2025 codec does), no answer once cancelled, and
 * the request's signal aborted by `notifications/cancelled` or the connection closing.
 *
 * The lane takes only what it answers exactly as the SDK does, and leaves everything else to the
 * SDK, untouched: a request with a member its method does not define (`task`, `inputResponses`,
 * `requestState`), `_meta` with more than a `progressToken`, any other method, anything before the
 * `initialize` answer, and every request of a 2026-07-28 connection (its per-request envelope and
 * result stamps are the SDK's). A handler may also hand its request over once it has started
 * (`HAND_OVER`: a tool that asks the user goes on under the SDK's elicitation shim, serve-tools.ts).
 */
import type { JSONRPCMessage, ProgressToken, RequestId, Result, StandardSchemaV1 } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Logger } from '../core/types';
import { invalidParamsMessage } from './request-params';

/** What a handler returns to leave its request to the SDK after all (see `HotRoute.handle`). */
export const HAND_OVER = Symbol('hand over to the SDK');

/** The request a hot handler answers. */
export interface HotRequest {
  readonly id: RequestId;
  /** Aborted by the client's `notifications/cancelled` (with its reason) or the connection closing. */
  readonly signal: AbortSignal;
  readonly progressToken: ProgressToken | undefined;
  /** Sends a notification about this request (progress). */
  notify(method: string, params: Record<string, unknown>): Promise<void>;
}

/** One method the lane answers. */
export interface HotRoute<P> {
  /** The same schema the SDK path checks the params with: its issues make the same -32602 message. */
  readonly params: StandardSchemaV1<P, P>;
  /** The params members the method defines besides `_meta`; a request with any other goes to the SDK. */
  readonly members: readonly string[];
  /**
   * The result, a thrown error (a ProtocolError's code and data are kept), or HAND_OVER: the
   * request then goes to the SDK as if the lane had never seen it (the handler leaves what the
   * SDK's handler needs to carry on).
   */
  handle(params: P, request: HotRequest): Promise<Result | typeof HAND_OVER>;
}

/** What the lane writes with and hands over to: the connection's wire. */
export interface HotWire {
  send(message: JSONRPCMessage): Promise<void>;
  /** Delivers a message to the SDK, as the wire does with every message the lane does not take. */
  deliver(message: JSONRPCMessage): void;
}

/** A request of the lane while it runs. */
interface InFlight {
  readonly controller: AbortController;
}

/** The hot lane of one server instance; answers only once armed (its `initialize` answered). */
export class HotLane {
  private readonly routes = new Map<string, HotRoute<unknown>>();
  private readonly inFlight = new Map<RequestId, InFlight>();
  private armed = false;
  private closed = false;

  /** `logger.trace` says which requests the lane answered and which it handed over (`--log-level trace`). */
  constructor(private readonly logger: Logger) {}

  /** Answers `method` on this lane (a feature registers it beside its SDK handler). */
  route<P>(method: string, route: HotRoute<P>): void {
    this.routes.set(method, route);
  }

  /** From now on the lane takes its requests (the connection's `initialize` has been answered). */
  arm(): void {
    this.armed = !this.closed;
  }

  /** Stops taking requests and aborts those in flight, unanswered (the connection closed). */
  close(reason: Error): void {
    this.closed = true;
    this.armed = false;
    const running = [...this.inFlight.values()];
    this.inFlight.clear();
    running.forEach(({ controller }) => controller.abort(reason));
  }

  /**
   * Takes `message` (parsed JSON, not yet checked by anyone) when the lane answers it: a request of
   * one of its methods, or the cancellation of one it is answering. Returns false for anything
   * else, which the wire passes to the SDK as usual.
   */
  take(message: unknown, wire: HotWire): boolean {
    if (!this.armed || typeof message !== 'object' || message === null) {
      return false;
    }
    const fields = message as Record<string, unknown>;
    const method = fields['method'];
    if (typeof method !== 'string') {
      return false;
    }
    if (method === 'notifications/cancelled') {
      return this.cancel(fields);
    }
    const route = this.routes.get(method);
    const id = fields['id'];
    const params = fields['params'] ?? {};
    if (route === undefined || !isEnvelope(fields, true) || !isRequestId(id) || !isPlainObject(params) || !onlyMembers(params, route.members)) {
      return false;
    }
    const meta = params['_meta'];
    const progressToken = meta === undefined ? undefined : progressTokenOf(meta);
    if (meta !== undefined && progressToken === undefined) {
      return false;
    }
    this.logger.trace(`[mcp] hot lane: ${method} ${JSON.stringify(id)}`);
    this.answer(message as JSONRPCMessage, { id, method, params, progressToken }, route, wire);
    return true;
  }

  private answer(message: JSONRPCMessage, request: { id: RequestId; method: string; params: Record<string, unknown>; progressToken: ProgressToken | undefined }, route: HotRoute<unknown>, wire: HotWire): void {
    const { id, method } = request;
    const controller = new AbortController();
    const flight: InFlight = { controller };
    this.inFlight.set(id, flight);
    const hot: HotRequest = {
      id,
      signal: controller.signal,
      progressToken: request.progressToken,
      notify: (notification, params) => wire.send({ jsonrpc: '2.0', method: notification, params }),
    };
    const done = (): boolean => {
      if (this.inFlight.get(id) === flight) {
        this.inFlight.delete(id);
      }
      return controller.signal.aborted;
    };
    handled(route, request.params, method, hot).then(
      (result) => {
        if (done()) {
          return;
        }
        if (result === HAND_OVER) {
          this.logger.trace(`[mcp] hot lane: ${method} ${JSON.stringify(id)} handed over to the SDK`);
          wire.deliver(message);
          return;
        }
        void wire.send({ jsonrpc: '2.0', id, result }).catch(() => undefined);
      },
      (error: unknown) => {
        if (!done()) {
          void wire.send({ jsonrpc: '2.0', id, error: errorOf(error) }).catch(() => undefined);
        }
      },
    );
  }

  /**
   * A well-formed cancellation of a request the lane answers: its signal aborts with the client's
   * reason, and no answer is sent. Any other goes to the SDK (which finds nothing of ours to cancel).
   */
  private cancel(fields: Record<string, unknown>): boolean {
    const params = fields['params'];
    if (!isEnvelope(fields, false) || !isPlainObject(params) || !(params['reason'] === undefined || typeof params['reason'] === 'string')) {
      return false;
    }
    const requestId = params['requestId'];
    const flight = isRequestId(requestId) ? this.inFlight.get(requestId) : undefined;
    if (flight === undefined) {
      return false;
    }
    this.inFlight.delete(requestId as RequestId);
    flight.controller.abort(params['reason']);
    return true;
  }
}

/** The route's handler after its params check (a failed check is the SDK's -32602 message). */
async function handled(route: HotRoute<unknown>, params: Record<string, unknown>, method: string, request: HotRequest): Promise<Result | typeof HAND_OVER> {
  const outcome = await route.params['~standard'].validate(params);
  if (outcome.issues !== undefined) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, invalidParamsMessage(method, outcome.issues));
  }
  return route.handle(outcome.value, request);
}

/**
 * An error as the SDK's protocol answers it: the thrown error's integer `code` (else -32603), its
 * message and its `data`; -32002 (resource not found) goes out as -32602, as both revisions'
 * codecs send it.
 */
function errorOf(error: unknown): { code: number; message: string; data?: unknown } {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const thrown: number = Number.isSafeInteger(fields['code']) ? (fields['code'] as number) : ProtocolErrorCode.InternalError;
  const code: number = thrown === (ProtocolErrorCode.ResourceNotFound as number) ? ProtocolErrorCode.InvalidParams : thrown;
  const message = typeof fields['message'] === 'string' ? fields['message'] : 'Internal error';
  return { code, message, ...(fields['data'] === undefined ? {} : { data: fields['data'] }) };
}

/**
 * `{"jsonrpc":"2.0","id":…,"method":…,"params"?:…}` (a request) or the same without `id` (a
 * notification), and nothing else: the SDK refuses any other member with -32600.
 */
function isEnvelope(fields: Record<string, unknown>, request: boolean): boolean {
  for (const key in fields) {
    if (key !== 'jsonrpc' && key !== 'method' && key !== 'params' && !(request && key === 'id')) {
      return false;
    }
  }
  return fields['jsonrpc'] === '2.0' && (!request || 'id' in fields);
}

/** A JSON-RPC id as the SDK takes it: a string or an integer. */
function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || Number.isInteger(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `params` has no member but `_meta` and `members`. */
function onlyMembers(params: Record<string, unknown>, members: readonly string[]): boolean {
  for (const key in params) {
    if (key !== '_meta' && !members.includes(key)) {
      return false;
    }
  }
  return true;
}

/** The progress token of `_meta` holding only that; undefined for any other `_meta` (the SDK's then). */
function progressTokenOf(meta: unknown): ProgressToken | undefined {
  if (!isPlainObject(meta)) {
    return undefined;
  }
  let token: unknown;
  for (const key in meta) {
    if (key !== 'progressToken') {
      return undefined;
    }
    token = meta[key];
  }
  return typeof token === 'string' || Number.isInteger(token) ? (token as ProgressToken) : undefined;
}
