/**
 * `{{name}}` placeholders, shared by everything that takes templates (shell argv, script args,
 * stdin, env, the http url, a tool step's `with`). Parsing only: fill.ts inserts values, and each
 * handler decides how a value is encoded (an argv token, a percent-encoded URL part).
 */

/** A piece of a template: literal text or a placeholder naming an input property. */
export type TemplatePart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'placeholder'; readonly name: string };

/** A name: an input property, or an earlier step's output in a multi-step tool (`steps.build.stdout`). */
const NAME = '(steps\\.[a-zA-Z0-9_-]+\\.(?:stdout|exitCode)|[a-zA-Z0-9_-]+)';
const PLACEHOLDER = new RegExp(`\\{\\{\\s*${NAME}\\s*\\}\\}`, 'g');
const WHOLE_PLACEHOLDER = new RegExp(`^\\{\\{\\s*${NAME}\\s*\\}\\}$`);

/** Splits a template into text and placeholders, in order. */
export function parseTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const index = match.index ?? 0;
    if (index > last) {
      parts.push({ kind: 'text', text: template.slice(last, index) });
    }
    parts.push({ kind: 'placeholder', name: match[1] ?? '' });
    last = index + match[0].length;
  }
  if (last < template.length) {
    parts.push({ kind: 'text', text: template.slice(last) });
  }
  return parts;
}

/** The property names a template refers to, in order, without repeats. */
export function placeholderNames(template: string): string[] {
  const names = new Set<string>();
  for (const match of template.matchAll(PLACEHOLDER)) {
    names.add(match[1] ?? '');
  }
  return [...names];
}

/** The property name when the whole token is one placeholder (`{{x}}`), else undefined. */
export function wholePlaceholder(token: string): string | undefined {
  return WHOLE_PLACEHOLDER.exec(token)?.[1];
}

/**
 * Where `{{name}}` first appears in `text` (with any spaces inside the braces), as offsets into
 * it; undefined when it does not (a string command split by quoting may spell it otherwise).
 */
export function placeholderSpan(text: string, name: string): { readonly start: number; readonly length: number } | undefined {
  for (const match of text.matchAll(PLACEHOLDER)) {
    if (match[1] === name) {
      return { start: match.index ?? 0, length: match[0].length };
    }
  }
  return undefined;
}

/**
 * The placeholders of `text` that name no property of `declared`, each where it first appears
 * and with the problem in the words every section uses.
 */
export function undeclaredPlaceholders(text: string, declared: Readonly<Record<string, unknown>>): { readonly message: string; readonly span?: { readonly start: number; readonly length: number } }[] {
  return placeholderNames(text)
    .filter((name) => !Object.hasOwn(declared, name))
    .map((name) => {
      const span = placeholderSpan(text, name);
      return { message: `Placeholder {{${name}}} names no property of inputSchema.`, ...(span === undefined ? {} : { span }) };
    });
}
