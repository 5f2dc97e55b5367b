/**
 * A shell task's command line, built so that a parameter's value is never shell text: where
 * tasks.json writes `${input:x}`, the line reads the environment variable the shell handler
 * sets for the parameter (`INPUT_X`, handlers/shell/values.ts), written for the quoting context
 * it stands in; `${env:NAME}` likewise reads `NAME` when the line runs, so a secret is never in
 * the text that is shown. The line is fixed when the task is imported, so what a person approves is what
 * runs; a value only ever arrives as the expansion of a quoted variable.
 *
 * The task's own text keeps its meaning (its `$HOME`, its globs, its `&&`): it is the workspace's
 * code, approved as such. Literal words are quoted as VS Code quotes task arguments: a word with
 * whitespace, or one given with `quoting`, strong (`'...'`), weak (`"..."`) or escaped.
 */
import { quoteForDisplay } from '../handlers/shell/command-line';
import type { ShellKind } from '../handlers/shell/shell-kind';
import { inputEnvName } from '../handlers/shell/values';
import { quoteCmdArgument } from '../platform/program-lookup';

/**
 * A piece of a task's text: the author's own, the value of an input, or a variable of the
 * environment (`${env:NAME}`), which is read when the task runs and never written into the text.
 */
export type CommandPart = { readonly text: string } | { readonly input: string } | { readonly env: string };

/** The environment variable a reference reads: the input's INPUT_ variable, or the named one. */
export function variableOf(part: { readonly input: string } | { readonly env: string }): string {
  return 'input' in part ? inputEnvName(part.input) : part.env;
}

/** How a task names a reference in its own words (`${input:x}`, `${env:NAME}`). */
export function referenceText(part: { readonly input: string } | { readonly env: string }): string {
  return 'input' in part ? `\${input:${part.input}}` : `\${env:${part.env}}`;
}

/** How a task argument is quoted (tasks.json `{ "value", "quoting" }`); `auto` for a plain string. */
export type Quoting = 'auto' | 'escape' | 'strong' | 'weak';

/** The variable reference, as it stands outside quotes. */
function bareReference(name: string, kind: ShellKind): string {
  switch (kind) {
    case 'posix':
      return `"\${${name}}"`;
    case 'pwsh':
      return `\${env:${name}}`;
    case 'cmd':
      // Delayed expansion (the handler runs cmd.exe with /v:on) happens after the line is parsed.
      return `!${name}!`;
  }
}

/** The variable reference inside a double-quoted string. */
function quotedReference(name: string, kind: ShellKind): string {
  return kind === 'posix' ? `\${${name}}` : kind === 'pwsh' ? `\${env:${name}}` : `!${name}!`;
}

type Context = 'none' | 'single' | 'double' | 'subst' | 'backtick';

/**
 * The author's raw command text with each input placed as a variable reference fit for where it
 * stands (outside quotes, in double quotes, in single quotes), or why it cannot be placed.
 */
export function shellText(parts: readonly CommandPart[], kind: ShellKind): string | { readonly reason: string } {
  const stack: Context[] = ['none'];
  let out = '';
  for (const part of parts) {
    if (!('text' in part)) {
      const top = stack.at(-1) ?? 'none';
      const name = variableOf(part);
      if (top === 'single') {
        if (kind !== 'posix') {
          return { reason: `${referenceText(part)} stands inside single quotes, where ${kind === 'pwsh' ? 'PowerShell' : 'the shell'} cannot read a variable; move it outside the quotes or into double quotes` };
        }
        out += `'"\${${name}}"'`;
      } else {
        out += top === 'double' ? quotedReference(name, kind) : bareReference(name, kind);
      }
      continue;
    }
    scanContexts(part.text, kind, stack);
    out += part.text;
  }
  return out;
}

/** Follows the quoting contexts through `text` (POSIX: quotes, `$(...)`, backticks; others: quotes). */
function scanContexts(text: string, kind: ShellKind, stack: Context[]): void {
  const escape = kind === 'posix' ? '\\' : kind === 'pwsh' ? '`' : '^';
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    const top = stack.at(-1) ?? 'none';
    if (top === 'single') {
      if (ch === "'") {
        stack.pop();
      }
    } else if (ch === escape && (top !== 'double' || kind !== 'cmd')) {
      i++;
    } else if (top === 'double') {
      if (ch === '"') {
        stack.pop();
      } else if (kind === 'posix' && text.startsWith('$(', i)) {
        stack.push('subst');
        i++;
      } else if (kind === 'posix' && ch === '`') {
        stack.push('backtick');
      }
    } else if (ch === "'" && kind !== 'cmd') {
      stack.push('single');
    } else if (ch === '"') {
      stack.push('double');
    } else if (kind === 'posix' && text.startsWith('$(', i)) {
      stack.push('subst');
      i++;
    } else if (kind === 'posix' && ch === ')' && top === 'subst') {
      stack.pop();
    } else if (kind === 'posix' && ch === '`') {
      if (top === 'backtick') {
        stack.pop();
      } else {
        stack.push('backtick');
      }
    }
  }
}

/** Whether a shell line ends with its quotes closed (else the task's own text is broken). */
export function quotesClosed(text: string, kind: ShellKind): boolean {
  const stack: Context[] = ['none'];
  scanContexts(text, kind, stack);
  return stack.length === 1;
}

/**
 * One task argument as a word of the command line. A plain word (`auto`) without whitespace is
 * the author's shell text as it is; one with whitespace, or one with `quoting`, is quoted; an
 * input inside a quoted word is a reference inside double quotes, so the word stays one word.
 */
export function shellWord(parts: readonly CommandPart[], quoting: Quoting, kind: ShellKind): string | { readonly reason: string } {
  const text = parts.map((part) => ('text' in part ? part.text : '')).join('');
  const hasInput = parts.some((part) => !('text' in part));
  const plain = quoting === 'auto' && text !== '' && !/\s/.test(text);
  if (plain || (quoting === 'auto' && text === '' && hasInput)) {
    return shellText(parts, kind);
  }
  if (!hasInput) {
    return quoteLiteral(text, quoting, kind);
  }
  // A word with values: one double-quoted string, the author's text escaped (weak keeps its variables live).
  const inner = parts.map((part) => ('text' in part ? escapeInDoubleQuotes(part.text, quoting === 'weak', kind) : quotedReference(variableOf(part), kind))).join('');
  return `"${inner}"`;
}

function quoteLiteral(text: string, quoting: Quoting, kind: ShellKind): string {
  if (quoting === 'weak') {
    return `"${escapeInDoubleQuotes(text, true, kind)}"`;
  }
  if (kind === 'cmd') {
    return quoteCmdArgument(text);
  }
  if (kind === 'pwsh') {
    return quoting === 'escape' && !/[\r\n]/.test(text) ? text.replace(/[\s'"`$&|;<>(){}@#,]/g, '`$&') : `'${text.replace(/'/g, "''")}'`;
  }
  if (quoting === 'escape' && !/[\r\n]/.test(text) && text !== '') {
    return text.replace(/[^A-Za-z0-9_@%+=:,./-]/g, '\\$&');
  }
  const quoted = quoteForDisplay(text);
  return quoted.startsWith("'") ? quoted : `'${quoted}'`;
}

/** Text inside "...": the quote and the escape character escaped; `$` and backticks too unless `live`. */
function escapeInDoubleQuotes(text: string, live: boolean, kind: ShellKind): string {
  if (kind === 'cmd') {
    return text.replace(/"/g, '""');
  }
  const escape = kind === 'pwsh' ? '`' : '\\';
  const special = live ? (kind === 'pwsh' ? /["`]/g : /["\\]/g) : kind === 'pwsh' ? /["`$]/g : /["\\$`]/g;
  return text.replace(special, `${escape}$&`);
}
