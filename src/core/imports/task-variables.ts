/**
 * tasks.json's predefined variables (https://code.visualstudio.com/docs/reference/variables-reference),
 * resolved when the task is imported: the ones that depend only on the workspace and the host
 * become text; `${input:id}` stays a reference to the parameter, and `${env:NAME}` a reference
 * to the variable, read only when the task runs (a token in the environment is never written
 * into a description, a listing or the approval text); the ones that need an editor
 * (the active file, the selection), VS Code's settings or its commands make the task not served,
 * with that reason, since no client outside VS Code has them.
 */
import type { Platform } from '../platform/platform';
import type { CommandPart } from './shell-words';

/** What resolving needs: the folder, the platform and the host's home (never its environment: see above). */
export interface VariableContext {
  readonly folder: string;
  readonly platform: Platform;
  readonly home: string;
}

const EDITOR_VARIABLES = new Set([
  'file', 'fileBasename', 'fileBasenameNoExtension', 'fileDirname', 'fileDirnameBasename', 'fileExtname',
  'fileWorkspaceFolder', 'relativeFile', 'relativeFileDirname', 'lineNumber', 'columnNumber', 'selectedText',
]);

/** Text with its variables resolved: parts, or why the task cannot be served. */
export type Resolved = { readonly parts: readonly CommandPart[] } | { readonly reason: string };

const VARIABLE = /\$\{([^}]*)\}/g;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Resolves every `${...}` of `text`. */
export function resolveVariables(text: string, context: VariableContext): Resolved {
  const parts: CommandPart[] = [];
  let last = 0;
  for (const match of text.matchAll(VARIABLE)) {
    const index = match.index ?? 0;
    pushText(parts, text.slice(last, index));
    const resolved = resolveOne(match[1] ?? '', context);
    if (typeof resolved === 'object') {
      if ('reason' in resolved) {
        return resolved;
      }
      parts.push(resolved);
    } else {
      pushText(parts, resolved);
    }
    last = index + match[0].length;
  }
  pushText(parts, text.slice(last));
  return { parts };
}

/** Resolves text that may not take a parameter (a working directory, a shell): plain text or why not. */
export function resolveToText(text: string, context: VariableContext, what: string): { readonly text: string } | { readonly reason: string } {
  const resolved = resolveVariables(text, context);
  if ('reason' in resolved) {
    return resolved;
  }
  const reference = resolved.parts.find((part) => !('text' in part));
  if (reference !== undefined && 'input' in reference) {
    return { reason: `its ${what} uses \${input:${reference.input}}, and a parameter cannot choose the ${what}` };
  }
  if (reference !== undefined && 'env' in reference) {
    return { reason: `its ${what} uses \${env:${reference.env}}, a variable that is read only when the task runs (so its value is never shown), and the ${what} must be known when the task is approved` };
  }
  return { text: resolved.parts.map((part) => ('text' in part ? part.text : '')).join('') };
}

function pushText(parts: CommandPart[], text: string): void {
  if (text === '') {
    return;
  }
  const last = parts.at(-1);
  if (last !== undefined && 'text' in last) {
    parts[parts.length - 1] = { text: last.text + text };
  } else {
    parts.push({ text });
  }
}

type Reference = { readonly input: string } | { readonly env: string };

function resolveOne(name: string, context: VariableContext): string | Reference | { readonly reason: string } {
  const { folder, platform } = context;
  const colon = name.indexOf(':');
  if (colon !== -1) {
    return resolvePrefixed(name.slice(0, colon), name.slice(colon + 1));
  }
  switch (name) {
    case 'workspaceFolder':
    case 'workspaceRoot':
    case 'cwd':
      return folder;
    case 'workspaceFolderBasename':
      return platform.path.basename(folder);
    case 'pathSeparator':
    case '/':
      return platform.path.sep;
    case 'userHome':
      return context.home;
    default:
      if (EDITOR_VARIABLES.has(name)) {
        return { reason: `it uses \${${name}}, which depends on the editor (the active file or selection), and a tool call has no editor` };
      }
      return { reason: `it uses \${${name}}, which only VS Code can resolve` };
  }
}

function resolvePrefixed(prefix: string, rest: string): Reference | { readonly reason: string } {
  switch (prefix) {
    case 'env':
      return ENV_NAME.test(rest) ? { env: rest } : { reason: `it uses \${env:${rest}}, which names no variable a shell can read (letters, digits and _, not starting with a digit)` };
    case 'input':
      return { input: rest };
    case 'config':
      return { reason: `it uses \${config:${rest}}, a VS Code setting, which a server outside VS Code cannot read` };
    case 'command':
      return { reason: `it uses \${command:${rest}}, which runs a VS Code command` };
    case 'workspaceFolder':
      return { reason: `it uses \${workspaceFolder:${rest}}, another folder of a multi-root workspace` };
    default:
      return { reason: `it uses \${${prefix}:${rest}}, which only VS Code can resolve` };
  }
}
