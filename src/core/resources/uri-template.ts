/**
 * RFC 6570 URI templates, level 1 (`{var}`, simple string expansion): what a resource template
 * is. A template matches a URI when each `{var}` matches one non-empty run of characters without
 * `/`, `?` or `#` (what level 1 expansion of a value can produce), decoded from percent-encoding.
 */

/** A parsed template: literal text and variables, in order. */
export interface UriTemplate {
  readonly text: string;
  readonly variables: readonly string[];
  /** Values by name when `uri` matches, else undefined. */
  match(uri: string): Readonly<Record<string, string>> | undefined;
  /** The URI for these values (each percent-encoded as level 1 asks). */
  expand(values: Readonly<Record<string, string>>): string;
}

/** A variable name as RFC 6570 allows it (varchar: ALPHA / DIGIT / "_" / pct-encoded; dots between). */
const VARIABLE = /^[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*$/;

/** Parses `text`; throws with a sentence saying what is wrong and at which offset. */
export function parseUriTemplate(text: string): UriTemplate {
  const parts: ({ readonly literal: string } | { readonly variable: string })[] = [];
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf('{', at);
    const close = text.indexOf('}', at);
    if (close !== -1 && (open === -1 || close < open)) {
      throw new UriTemplateError(`a "}" at offset ${close} closes no "{"`, close);
    }
    if (open === -1) {
      parts.push({ literal: text.slice(at) });
      break;
    }
    if (open > at) {
      parts.push({ literal: text.slice(at, open) });
    }
    if (close === -1) {
      throw new UriTemplateError(`the "{" at offset ${open} is not closed`, open);
    }
    const name = text.slice(open + 1, close);
    if (!VARIABLE.test(name)) {
      throw new UriTemplateError(
        `"{${name}}" is not a level 1 variable: write {name} with letters, digits and "_" only (operators such as {+x}, {/x} or {?x} and lists {x,y} are not supported)`,
        open,
      );
    }
    if (parts.some((part) => 'variable' in part && part.variable === name)) {
      throw new UriTemplateError(`the variable "${name}" appears twice`, open);
    }
    parts.push({ variable: name });
    at = close + 1;
  }
  const variables = parts.flatMap((part) => ('variable' in part ? [part.variable] : []));
  if (variables.length === 0) {
    throw new UriTemplateError('it has no {variable}: use "uri" for a single resource', 0);
  }
  const pattern = new RegExp(`^${parts.map((part) => ('variable' in part ? '([^/?#]+)' : escapeRegExp(part.literal))).join('')}$`);
  return {
    text,
    variables,
    match: (uri) => {
      const found = pattern.exec(uri);
      if (found === null) {
        return undefined;
      }
      try {
        return Object.fromEntries(variables.map((name, index) => [name, decodeURIComponent(found[index + 1] ?? '')]));
      } catch {
        // A malformed %-escape is no value of ours.
        return undefined;
      }
    },
    expand: (values) => parts.map((part) => ('variable' in part ? encodeURIComponent(values[part.variable] ?? '') : part.literal)).join(''),
  };
}

/** A template that does not parse; `offset` is where in its text. */
export class UriTemplateError extends Error {
  override readonly name = 'UriTemplateError';

  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
