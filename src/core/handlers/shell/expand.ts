/**
 * `{{name}}` templates of the shell handler: compiled once at load (argv tokens, stdin, env
 * values), then filled with values on each call (src/core/templates: values are inserted once and
 * never re-scanned, so a value that looks like a placeholder, `${env:...}` or shell syntax stays
 * literal text). What is the shell's own: one argument per value, no argument may start with
 * a value's `-`, and `${env:NAME}` in a command's own text is read when it runs, never before.
 */
import type { TemplatePart } from '../../templates';
import { fillEnvReferences, fillText, fillWhole, isAbsent, parseTemplate, stringForm, wholePlaceholder } from '../../templates';
import { ToolInputError } from '../../tool-errors';
import type { ToolInput } from '../../types';

/** An argv token after compiling: exactly one placeholder (one argument per value) or a template. */
export type ArgvToken =
  | { readonly kind: 'whole'; readonly name: string }
  | { readonly kind: 'template'; readonly parts: readonly TemplatePart[] };

/** Options for turning argv templates into arguments. */
export interface ArgvOptions {
  /** Lets a value start an argument with `-` (the plugin opted in). */
  readonly allowLeadingDash: boolean;
  /**
   * The run's environment: `${env:NAME}` in a token's own text reads it. Absent for what is shown
   * (a dry run, the history's "ran"), which keeps the reference as written, so a secret that
   * reaches a program's argv is never displayed.
   */
  readonly hostEnv?: Readonly<Record<string, string | undefined>>;
}

/** Compiles argv templates once. */
export function compileArgv(tokens: readonly string[]): ArgvToken[] {
  return tokens.map((token) => {
    const whole = wholePlaceholder(token);
    return whole === undefined ? { kind: 'template', parts: parseTemplate(token) } : { kind: 'whole', name: whole };
  });
}

/**
 * Fills compiled argv: a whole-placeholder token becomes one argument (one per element for an
 * array value, none for an empty array); an embedded placeholder is substituted within its
 * token; a token naming an absent value is dropped.
 */
export function expandArgv(tokens: readonly ArgvToken[], input: ToolInput, options: ArgvOptions): string[] {
  const args: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'whole') {
      const value = input[token.name];
      if (isAbsent(value)) {
        continue;
      }
      for (const item of Array.isArray(value) ? value : [value]) {
        const arg = stringForm(item);
        refuseLeadingDash(token.name, arg, options);
        args.push(arg);
      }
      continue;
    }
    const arg = expandToken(token.parts, input, options);
    if (arg !== undefined) {
      args.push(arg);
    }
  }
  return args;
}

/** One token with embedded placeholders, or undefined when one of its values is absent. */
function expandToken(parts: readonly TemplatePart[], input: ToolInput, options: ArgvOptions): string | undefined {
  let arg = '';
  for (const part of parts) {
    if (part.kind === 'text') {
      const hostEnv = options.hostEnv;
      arg += hostEnv === undefined ? part.text : fillEnvReferences(part.text, (name) => hostEnv[name] ?? '');
      continue;
    }
    const value = input[part.name];
    if (isAbsent(value)) {
      return undefined;
    }
    const text = stringForm(value);
    if (arg === '') {
      refuseLeadingDash(part.name, text, options);
    }
    arg += text;
  }
  return arg;
}

function refuseLeadingDash(name: string, text: string, options: ArgvOptions): void {
  if (options.allowLeadingDash || !text.startsWith('-')) {
    return;
  }
  const shown = text.length > 60 ? `${text.slice(0, 60)}...` : text;
  throw new ToolInputError(
    `Parameter "${name}" would start an argument with "-" (${JSON.stringify(shown)}), which the ` +
      'program would read as an option (argument injection), so it was refused. Pass a value ' +
      'that does not start with "-".',
  );
}

/** Fills a compiled text template (stdin): absent values become empty text. */
export function expandText(parts: readonly TemplatePart[], input: ToolInput): string {
  return fillText(parts, input);
}

/**
 * Fills a compiled `env` value: `${env:NAME}` in the template's own text reads `hostEnv` (empty
 * when unset), placeholders insert values. Undefined when a placeholder's value is absent, so the
 * variable is left unset rather than set to a half-built string.
 */
export function expandEnvValue(
  parts: readonly TemplatePart[],
  input: ToolInput,
  hostEnv: Readonly<Record<string, string | undefined>>,
): string | undefined {
  return fillWhole(parts, input, (text) => fillEnvReferences(text, (name) => hostEnv[name] ?? ''));
}
