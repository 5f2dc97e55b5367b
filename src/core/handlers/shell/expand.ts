/**
 * Run-time expansion of `{{name}}` placeholders into argv, stdin and environment values.
 * Values are inserted once and never re-scanned, so a value that looks like a placeholder,
 * `${env:...}` or shell syntax stays literal text.
 */
import { parseTemplate, wholePlaceholder } from '../../plugins/template';
import type { ToolInput } from '../../types';
import { ShellValueError, stringForm } from './values';

/** Options for turning argv templates into arguments. */
export interface ArgvOptions {
  /** Lets a value start an argument with `-` (the plugin opted in). */
  readonly allowLeadingDash: boolean;
}

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

/**
 * Expands argv templates: a token that is exactly `{{x}}` becomes one argument (one per element
 * for an array value, none for an empty array); an embedded placeholder is substituted within
 * its token; a token naming an absent value is dropped.
 */
export function expandArgv(
  tokens: readonly string[],
  input: ToolInput,
  options: ArgvOptions,
): string[] {
  const args: string[] = [];
  for (const token of tokens) {
    const whole = wholePlaceholder(token);
    if (whole !== undefined) {
      const value = input[whole];
      if (isAbsent(value)) {
        continue;
      }
      const values = Array.isArray(value) ? value : [value];
      for (const item of values) {
        const arg = stringForm(item);
        refuseLeadingDash(whole, arg, options);
        args.push(arg);
      }
      continue;
    }
    const arg = expandToken(token, input, options);
    if (arg !== undefined) {
      args.push(arg);
    }
  }
  return args;
}

/** One token with embedded placeholders, or undefined when one of its values is absent. */
function expandToken(token: string, input: ToolInput, options: ArgvOptions): string | undefined {
  let arg = '';
  for (const part of parseTemplate(token)) {
    if (part.kind === 'text') {
      arg += part.text;
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
  throw new ShellValueError(
    `Parameter "${name}" would start an argument with "-" (${JSON.stringify(shown)}), which the ` +
      'program would read as an option (argument injection), so it was refused. Pass a value ' +
      'that does not start with "-".',
  );
}

/** Expands a text template (stdin): absent values become empty text. */
export function expandText(template: string, input: ToolInput): string {
  return parseTemplate(template)
    .map((part) => {
      if (part.kind === 'text') {
        return part.text;
      }
      const value = input[part.name];
      return isAbsent(value) ? '' : stringForm(value);
    })
    .join('');
}

const ENV_REFERENCE = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Expands an `env` value: `${env:NAME}` in the template's own text reads `hostEnv` (empty when
 * unset), placeholders insert values. Undefined when a placeholder's value is absent, so the
 * variable is left unset rather than set to a half-built string.
 */
export function expandEnvValue(
  template: string,
  input: ToolInput,
  hostEnv: Readonly<Record<string, string | undefined>>,
): string | undefined {
  let result = '';
  for (const part of parseTemplate(template)) {
    if (part.kind === 'text') {
      result += part.text.replace(ENV_REFERENCE, (_match, name: string) => hostEnv[name] ?? '');
      continue;
    }
    const value = input[part.name];
    if (isAbsent(value)) {
      return undefined;
    }
    result += stringForm(value);
  }
  return result;
}
