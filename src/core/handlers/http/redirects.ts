/**
 * Redirects of the `http` handler, followed by hand so that the plugin's secret headers never
 * reach another origin and a redirect never leaves http: and https:.
 */

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/** A redirect that was not followed; its message says why. */
export class RedirectError extends Error {}

/** The request as the handler built it. */
export interface OutgoingRequest {
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
  readonly signal: AbortSignal;
}

/**
 * fetch with redirects followed by hand: only to http: and https:, at most MAX_REDIRECTS, and
 * the plugin's headers (which carry `${env:...}` secrets for the host it named) are dropped as
 * soon as a redirect leaves the original origin (fetch itself would forward all but
 * Authorization, even from https to http). 303, and 301/302 after a POST, become a GET without
 * a body, as in fetch.
 */
export async function fetchFollowingRedirects(url: URL, init: OutgoingRequest): Promise<Response> {
  let current = url;
  let { method, headers, body } = init;
  for (let hop = 0; ; hop++) {
    const response = await fetch(current, { method, headers, body, signal: init.signal, redirect: 'manual' });
    const location = response.headers.get('location');
    if (!REDIRECT_STATUSES.has(response.status) || location === null) {
      return response;
    }
    await response.body?.cancel().catch(() => undefined);
    if (hop >= MAX_REDIRECTS) {
      throw new RedirectError(`more than ${MAX_REDIRECTS} redirects; stopped following them.`);
    }
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new RedirectError('the server redirected to an invalid URL.');
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new RedirectError(`refused to follow a redirect to a ${next.protocol} URL; only http: and https: are allowed.`);
    }
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = method === 'HEAD' ? 'HEAD' : 'GET';
      body = undefined;
      headers = withoutHeader(headers, 'content-type');
    }
    if (next.origin !== url.origin) {
      headers = {};
    }
    current = next;
  }
}

function withoutHeader(headers: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== name));
}
