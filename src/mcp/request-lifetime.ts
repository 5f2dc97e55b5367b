/**
 * When the handling of a request has ended, for what must not outlive it. On 2025-11-25 a tool's
 * question is a request to the client inside the call's (the SDK's input_required shim sends
 * `elicitation/create` and calls the handler again with the answer), so once the call's request
 * has answered (with the result, the shim's own failure, or a cancellation) no answer can come,
 * and a call still waiting for one is abandoned (serve-tools.ts). The SDK ends no signal then: the
 * request's own signal aborts only on cancellation.
 */

interface RequestContext {
  readonly mcpReq: { readonly signal: AbortSignal };
}

/** By the request's signal, which the shim's later contexts carry on (it copies the context). */
const endings = new WeakMap<AbortSignal, AbortSignal>();

/** `handler`, noting when each request it handles has ended (see requestEnded). */
export function noteRequestEnd<Q, C extends RequestContext, R>(handler: (request: Q, ctx: C) => Promise<R>): (request: Q, ctx: C) => Promise<R> {
  return async (request, ctx) => {
    const ended = new AbortController();
    endings.set(ctx.mcpReq.signal, ended.signal);
    try {
      return await handler(request, ctx);
    } finally {
      ended.abort();
    }
  };
}

/**
 * Aborted once the request of `ctx` has been handled (a cancelled one ends too: the SDK stops
 * handling it); a handler not wrapped by noteRequestEnd has only its cancellation.
 */
export function requestEnded(ctx: RequestContext): AbortSignal {
  return endings.get(ctx.mcpReq.signal) ?? ctx.mcpReq.signal;
}
