/**
 * The `http` handler: one request per call. URL placeholder values are percent-encoded so they
 * cannot change the scheme, host or path structure; only http: and https: URLs are sent; the
 * response is read up to a cap; timeouts and cancellation abort the request and the body read.
 */
import { endedHow } from '../../process/outcome';
import { redactSecrets, redactUrl } from '../../redact';
import { ToolInputError } from '../../tool-errors';
import { errorResult, textResult } from '../../types';
import type { ToolInput, ToolResult, ToolRunContext } from '../../types';
import type { HandlerProblem, HandlerTarget, HandlerType } from '../handler';
import type { MediaOutput } from '../media-output';
import { MediaBytes, mediaResult } from '../media-output';
import type { TemplatePart } from '../../templates';
import { envReferenceProblem, fillEnvReferences, hasEnvReference, isAbsent, parseTemplate, placeholderNames, stringForm, undeclaredPlaceholders } from '../../templates';
import { RedirectError, fetchFollowingRedirects } from './redirects';
import type { HttpHandlerSpec } from './spec';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
const HTTP_SCHEME_PREFIX = /^https?:\/\//i;

/** Sends one HTTP request per call; see DESIGN.md "http handler". The url template is parsed once, at load. */
export const httpHandler: HandlerType<HttpHandlerSpec> = {
  defaultTags: ['network'],
  compile(spec, target) {
    const problems = [...checkUrl(spec.url, target.inputSchema.properties ?? {}), ...checkHeaders(spec.headers ?? {})];
    if (problems.length > 0) {
      return { problems };
    }
    const url = parseTemplate(spec.url);
    const method = spec.method ?? 'POST';
    return {
      run: (input, context) => send(spec, url, input, context, target),
      preview: (input, limits) => [`${method} ${redactUrl(displayUrl(expandUrl(url, input, limits.maxValueLength).url))}`, ...Object.keys(spec.headers ?? {}).map((name) => `header ${name}`)],
      summary: redactSecrets(`${method} ${spec.url}`),
      // Headers as written: a ${env:NAME} in them is filled in only at run time, never shown.
      approvalLines: [`http: ${method} ${spec.url}`, ...Object.keys(spec.headers ?? {}).map((name) => `header ${name}: ${spec.headers?.[name] ?? ''}`)].map(redactSecrets),
      confinement: 'starts no process: the server sends the request itself, to the URL shown',
    };
  },
};

function checkUrl(url: string, declared: Readonly<Record<string, unknown>>): HandlerProblem[] {
  const at = ['handler', 'url'];
  const problems: HandlerProblem[] = undeclaredPlaceholders(url, declared).map((problem) => ({ path: at, ...problem }));
  if (hasEnvReference(url)) {
    problems.push({ path: at, message: '${env:NAME} is only allowed in headers, not in the url.' });
  }
  // The scheme must be literal text: a placeholder there could make the request anything.
  const first = parseTemplate(url)[0];
  const prefix = first?.kind === 'text' ? first.text : '';
  if (!HTTP_SCHEME_PREFIX.test(prefix)) {
    problems.push({ path: at, message: 'url must start with literal "http://" or "https://".' });
  }
  return problems;
}

function checkHeaders(headers: Readonly<Record<string, string>>): HandlerProblem[] {
  const problems: HandlerProblem[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const at = ['handler', 'headers', name];
    if (placeholderNames(value).length > 0) {
      problems.push({ path: at, message: 'Header values take ${env:NAME}, not {{placeholders}}.' });
    }
    const message = envReferenceProblem(value);
    if (message !== undefined) {
      problems.push({ path: at, message });
    }
  }
  return problems;
}

async function send(
  spec: HttpHandlerSpec,
  urlTemplate: readonly TemplatePart[],
  input: ToolInput,
  context: ToolRunContext,
  target: HandlerTarget,
): Promise<ToolResult> {
  const { toolName, mediaOutput: media } = target;
  const method = spec.method ?? 'POST';
  const { url, used } = expandUrl(urlTemplate, input, context.limits.maxValueLength);
  const headers = expandHeaders(spec.headers ?? {}, context.env, toolName);
  let body: string | undefined;
  if (METHODS_WITH_BODY.has(method)) {
    body = JSON.stringify(Object.fromEntries(Object.entries(input).filter(([key]) => !used.has(key))));
    if (!Object.keys(headers).some((key) => key.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
  }
  const timeoutMs = spec.timeout ?? context.limits.httpTimeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([context.signal, timeout]);
  const cap = spec.maxResponseBytes ?? context.limits.maxResponseBytes;
  try {
    const response = await fetchFollowingRedirects(url, { method, headers, body, signal });
    if (media !== undefined && response.ok) {
      return await mediaResponse(response, media, cap, `${method} ${redactUrl(displayUrl(url))}`);
    }
    const text = await readCapped(response, cap);
    const result = `HTTP ${response.status} ${response.statusText}\n\n${text}`;
    const details = { httpStatus: response.status, ran: `${method} ${redactUrl(displayUrl(url))}`, stdout: text };
    return { ...(response.ok ? textResult(result) : errorResult(result)), details };
  } catch (error) {
    const shown = displayUrl(url);
    if (context.signal.aborted) {
      throw new Error(`Request to ${shown} ${endedHow({ kind: 'cancelled' })}.`);
    }
    if (timeout.aborted) {
      throw new Error(`Request to ${shown} ${endedHow({ kind: 'timeout', timeoutMs })}.`);
    }
    if (error instanceof RedirectError) {
      throw new Error(`Request to ${shown}: ${error.message}`);
    }
    throw new Error(`Request to ${shown} failed: ${describeFetchError(error)}`);
  }
}

/** The URL for messages, without a user name or password that the template may contain. */
function displayUrl(url: URL): string {
  if (url.username === '' && url.password === '') {
    return url.href;
  }
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}

/**
 * Fills the compiled url template with percent-encoded values and parses it. Returns the URL and
 * the input names it used (the rest become the JSON body). Refuses anything but http: and https:.
 */
export function expandUrl(template: readonly TemplatePart[], input: ToolInput, maxValueLength: number): { url: URL; used: Set<string> } {
  const used = new Set<string>();
  let text = '';
  let inPath = true;
  for (const part of template) {
    if (part.kind === 'text') {
      text += part.text;
      inPath = inPath && !/[?#]/.test(part.text);
      continue;
    }
    used.add(part.name);
    const value = urlValue(part.name, input[part.name]);
    if (value.length > maxValueLength) {
      throw new ToolInputError(`Value of "${part.name}" is ${value.length} characters; the limit is ${maxValueLength}.`);
    }
    // URL parsing treats "." and ".." (even encoded) as path steps: /api/{{x}} must not reach /.
    if (inPath && /^(\.|%2e){1,2}$/i.test(value)) {
      throw new ToolInputError(`Value of "${part.name}" cannot be "${value}": it would change the URL path.`);
    }
    text += encodeURIComponent(value);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`The tool's url does not form a valid URL after filling in the values: ${text}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`Refused to send a request to a ${url.protocol} URL; only http: and https: are allowed.`);
  }
  if (url.username !== '' || url.password !== '') {
    // fetch refuses such a URL with a message that quotes it, password included.
    throw new Error(
      'The tool\'s url contains a user name or password, which is not sent; put credentials in a header with ${env:NAME}.',
    );
  }
  return { url, used };
}

function urlValue(name: string, value: unknown): string {
  if (isAbsent(value)) {
    return '';
  }
  if (typeof value === 'string' && value.includes('\0')) {
    throw new ToolInputError(`Value of "${name}" contains a NUL byte.`);
  }
  return stringForm(value);
}

/** Header values with `${env:NAME}` filled in from the run's environment. */
export function expandHeaders(
  headers: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
  toolName: string,
): Record<string, string> {
  const expanded: Record<string, string> = {};
  for (const [name, template] of Object.entries(headers)) {
    expanded[name] = fillEnvReferences(template, (variable) => {
      const value = env[variable];
      if (value === undefined) {
        throw new Error(
          `Environment variable ${variable} is not set; tool "${toolName}" needs it for the "${name}" header. ` +
            'Ask the user to set it and restart the editor or server.',
        );
      }
      // fetch would refuse it with an error that quotes the value: a secret in the result.
      if (/[\r\n\0]/.test(value)) {
        throw new Error(
          `Environment variable ${variable} contains a line break or NUL byte, which the "${name}" header of ` +
            `tool "${toolName}" cannot carry; nothing was sent. Ask the user to fix the variable.`,
        );
      }
      return value;
    });
  }
  return expanded;
}

/**
 * A successful response of a tool that declares image or audio output: the body's bytes as one
 * media part, when the server says it is media of that kind (or says nothing); a body the server
 * labels as something else (an HTML login page, a JSON error) is an error result that shows it.
 */
async function mediaResponse(response: Response, media: MediaOutput, cap: number, ran: string): Promise<ToolResult> {
  const details = { httpStatus: response.status, ran };
  const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== '' && !type.startsWith(`${media.kind}/`) && type !== 'application/octet-stream') {
    const text = await readCapped(response, Math.min(cap, 4096));
    return { ...errorResult(`HTTP ${response.status} ${response.statusText}: the response is ${type}, not the ${media.mimeType} the tool declares.\n\n${text}`), details };
  }
  const bytes = new MediaBytes(cap);
  // One byte past the cap tells MediaBytes the body is over it; the rest is never downloaded.
  await readBody(response, cap + 1, (chunk) => bytes.push(chunk));
  return { ...mediaResult(media, bytes, { source: 'The response body', cap, capName: 'maxResponseBytes' }), details };
}

/** Hands the body to `take` in chunks up to `cap` bytes; whether there was more (never downloaded). */
async function readBody(response: Response, cap: number, take: (chunk: Uint8Array) => void): Promise<{ truncated: boolean }> {
  if (response.body === null) {
    return { truncated: false };
  }
  let kept = 0;
  // Leaving the loop early cancels the stream: the rest of the body is never downloaded.
  for await (const value of response.body as AsyncIterable<Uint8Array>) {
    const room = cap - kept;
    if (value.length > room) {
      take(value.subarray(0, room));
      return { truncated: true };
    }
    take(value);
    kept += value.length;
  }
  return { truncated: false };
}

/** The body as text, reading at most `cap` bytes; the rest is never read, only noted. */
async function readCapped(response: Response, cap: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  const { truncated } = await readBody(response, cap, (chunk) => chunks.push(chunk));
  const text = Buffer.concat(chunks).toString('utf8');
  if (!truncated) {
    return text;
  }
  const length = response.headers.get('content-length');
  const total = length === null ? '' : ` of ${length}`;
  return `${text}\n[response truncated: only the first ${cap} bytes${total} were read (cap ${cap} bytes)]`;
}

/** fetch wraps the useful reason (ECONNREFUSED, DNS) in `cause`. */
function describeFetchError(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause;
    if (cause instanceof Error && cause.message !== '') {
      return `${error.message} (${cause.message})`;
    }
    return error.message;
  }
  return String(error);
}
