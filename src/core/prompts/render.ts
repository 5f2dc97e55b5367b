/**
 * Rendering a prompt for the arguments a client sent: the arguments checked against the prompt
 * (PromptArgumentError), text messages filled by the template language, and the files and images
 * messages name read from inside the workspace folder (containment with symlinks resolved, a size
 * cap, regular files only), as file-read reads them.
 */
import * as path from 'node:path';
import { readContainedBytes } from '../files/open-contained';
import { DEFAULT_MAX_FILE_BYTES } from '../files/read-text';
import { fillText, fillWhole } from '../templates';
import { relativePathProblem } from './compile';
import { imageTypeOfBytes } from '../files/read-image';
import { UNKNOWN_MIME_TYPE, isTextual, mimeTypeOf } from '../resources/mime-types';
import { workspaceFileUri } from '../resources/workspace-uri';
import type { CompiledMessage, PromptContent, PromptDefinition, RenderedPrompt } from './prompt';
import { PromptArgumentError } from './prompt';

/** How rendering reads files. */
export interface RenderOptions {
  /** Largest file a message embeds, in bytes (default file-read's 1 MiB). */
  readonly maxFileBytes?: number;
}

/**
 * The prompt's messages for `args`. A `file` or `image` message whose path names an argument
 * that was not given is left out (an optional attachment); any other problem throws
 * PromptArgumentError naming the prompt and what was wrong.
 */
export async function renderPrompt(prompt: PromptDefinition, args: Readonly<Record<string, string>>, options: RenderOptions = {}): Promise<RenderedPrompt> {
  const values = checkArguments(prompt, args);
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const messages = [];
  for (const message of prompt.messages) {
    const content = await contentOf(prompt, message, values, maxBytes);
    if (content !== undefined) {
      messages.push({ role: message.role, content });
    }
  }
  return { ...(prompt.description === undefined ? {} : { description: prompt.description }), messages };
}

/** The arguments as template values, after checking names, required ones and `enum` values. */
export function checkArguments(prompt: PromptDefinition, args: Readonly<Record<string, string>>): Record<string, string> {
  const known = new Map(prompt.arguments.map((argument) => [argument.name, argument]));
  const unknown = Object.keys(args).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    const names = prompt.arguments.map((argument) => argument.name).join(', ') || 'none';
    throw new PromptArgumentError(`Prompt "${prompt.name}" has no argument ${unknown.map((name) => `"${name}"`).join(', ')} (its arguments: ${names}).`);
  }
  const missing = prompt.arguments.filter((argument) => argument.required && (args[argument.name] ?? '') === '').map((argument) => `"${argument.name}"`);
  if (missing.length > 0) {
    throw new PromptArgumentError(`Prompt "${prompt.name}" needs the argument${missing.length === 1 ? '' : 's'} ${missing.join(', ')}.`);
  }
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) {
    const allowed = known.get(name)?.enum;
    if (allowed !== undefined && value !== '' && !allowed.includes(value)) {
      throw new PromptArgumentError(`Prompt "${prompt.name}": "${value}" is not a value of "${name}" (one of: ${allowed.join(', ')}).`);
    }
    if (value !== '') {
      values[name] = value;
    }
  }
  return values;
}

async function contentOf(prompt: PromptDefinition, message: CompiledMessage, values: Record<string, string>, maxBytes: number): Promise<PromptContent | undefined> {
  if (message.kind === 'text') {
    return { type: 'text', text: fillText(message.parts, values) };
  }
  const requested = fillWhole(message.path, values);
  if (requested === undefined) {
    return undefined;
  }
  const bytes = await readWorkspaceFile(prompt, requested, maxBytes);
  if (message.kind === 'image') {
    const mimeType = imageTypeOfBytes(bytes);
    if (mimeType === undefined) {
      throw new PromptArgumentError(`Prompt "${prompt.name}": ${requested} is not a PNG, JPEG, GIF or WebP image.`);
    }
    return { type: 'image', data: Buffer.from(bytes).toString('base64'), mimeType };
  }
  // Typed and told apart (text or blob) as a resource of the same file is; named by the same
  // workspace URI, so no path of this machine reaches the chat.
  const named = mimeTypeOf(requested);
  const text = isTextual(named, bytes) ? new TextDecoder().decode(bytes).replace(/^\uFEFF/, '') : undefined;
  const mimeType = text !== undefined && named === UNKNOWN_MIME_TYPE ? 'text/plain' : named;
  const uri = workspaceFileUri(prompt.folder, path.posix.normalize(requested.replace(/\\/g, '/')));
  return { type: 'resource', resource: text === undefined ? { uri, mimeType, blob: Buffer.from(bytes).toString('base64') } : { uri, mimeType, text } };
}

/** A file inside the prompt's folder (its real path there), at most `maxBytes`, as bytes. */
async function readWorkspaceFile(prompt: PromptDefinition, requested: string, maxBytes: number): Promise<Buffer> {
  const refused = relativePathProblem(requested);
  if (refused !== undefined) {
    throw new PromptArgumentError(`Prompt "${prompt.name}": ${refused}.`);
  }
  try {
    // Opened, then checked for what was opened; no .git, no second name outside (open-contained).
    return await readContainedBytes({ basePath: prompt.folder.path, path: requested, refuseGitDirectory: true, refuseHardLinks: true }, maxBytes);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new PromptArgumentError(`Prompt "${prompt.name}" cannot read ${requested}: ${reason.replace(/\.$/, '')}.`);
  }
}
