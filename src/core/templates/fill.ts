/**
 * Filling a parsed template with values: text parts as written, each placeholder by its value's
 * string form (string-form.ts), an absent value as empty text. Values are inserted once and never
 * re-scanned, so a value that looks like `{{x}}` or `${env:...}` stays literal text.
 */
import type { TemplatePart } from './placeholders';
import { isAbsent, stringForm } from './string-form';

/** The values a template reads, by placeholder name. */
export type TemplateValues = Readonly<Record<string, unknown>>;

/** The template as text: absent values become empty text. */
export function fillText(parts: readonly TemplatePart[], values: TemplateValues): string {
  return parts.map((part) => (part.kind === 'text' ? part.text : textOf(values[part.name]))).join('');
}

/**
 * The template as text, or undefined when one of its placeholders has no value: for a value that
 * must be whole or not there at all (an env variable, an argv token). `text` maps each text part
 * (e.g. to fill its `${env:NAME}` references).
 */
export function fillWhole(parts: readonly TemplatePart[], values: TemplateValues, text: (literal: string) => string = (literal) => literal): string | undefined {
  let result = '';
  for (const part of parts) {
    if (part.kind === 'text') {
      result += text(part.text);
      continue;
    }
    const value = values[part.name];
    if (isAbsent(value)) {
      return undefined;
    }
    result += stringForm(value);
  }
  return result;
}

/**
 * A template that is exactly one placeholder gives its value as it is (a number stays a number);
 * any other is filled as text. For a tool step's `with`, whose values are JSON, not only text.
 */
export function fillValue(parts: readonly TemplatePart[], values: TemplateValues): unknown {
  const only = parts.length === 1 ? parts[0] : undefined;
  return only?.kind === 'placeholder' ? values[only.name] : fillText(parts, values);
}

function textOf(value: unknown): string {
  return isAbsent(value) ? '' : stringForm(value);
}
