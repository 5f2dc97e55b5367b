/**
 * Reading a plugin resource: a workspace file through the file readers' containment and size
 * rules (paths/containment, files/read-bounded), or a command's output through runProcess (argv,
 * no shell, a timeout and an output cap), with a template's values checked first.
 */
import * as path from 'node:path';
import { hasGitSegment, readContainedBytes } from '../files/open-contained';
import { MediaBytes } from '../handlers/media-output';
import { expandArgv } from '../handlers/shell/expand';
import { checkValues } from '../handlers/shell/values';
import { classifyOutcome, endedHow } from '../process/outcome';
import { runProcess } from '../process/run-process';
import { fillText } from '../templates';
import type { ExecutionLimits } from '../types';
import { isTextual, mimeTypeOf } from './mime-types';
import type { PluginResource } from './plugin-resource';

/** What reading needs from the host. */
export interface ResourceReadContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly limits: ExecutionLimits;
  readonly signal?: AbortSignal;
}

/** One resource's contents, as MCP `resources/read` returns them: text, or base64 bytes. */
export type ResourceContents =
  | { readonly uri: string; readonly mimeType: string; readonly text: string }
  | { readonly uri: string; readonly mimeType: string; readonly blob: string };

/** A URI that names a resource, with what the URI says: a template's values, a glob's file. */
export interface FoundResource {
  readonly resource: PluginResource;
  readonly uri: string;
  readonly values?: Readonly<Record<string, string>>;
  /** A `files` glob's file, relative to the folder. */
  readonly path?: string;
}

/** A template value the resource does not take; the client must change the URI. */
export class ResourceInputError extends Error {
  override readonly name = 'ResourceInputError';
}

/** The resource could not be read (missing, too large, outside the folder, the command failed). */
export class ResourceReadError extends Error {
  override readonly name = 'ResourceReadError';
}

/** Reads what `found` names; throws ResourceInputError or ResourceReadError, worded for the client. */
export async function readResource(found: FoundResource, context: ResourceReadContext): Promise<ResourceContents> {
  const { resource } = found;
  const values = found.values ?? {};
  checkTemplateValues(resource, values, context.limits.maxValueLength);
  const { content } = resource;
  if (content.kind === 'command') {
    let argv: string[];
    try {
      argv = expandArgv(content.argv, values, { allowLeadingDash: false });
    } catch (error) {
      // A value that would start an option: the URI must change.
      throw new ResourceInputError(error instanceof Error ? error.message : String(error));
    }
    return runCommand(found, argv, context);
  }
  return readFile(found, filePathOf(found) ?? '');
}

/**
 * The workspace file (relative to the folder) a found resource reads; undefined for a command.
 * A template value may not change the path's shape: "/", "\\", "." and ".." are refused
 * (ResourceInputError), so `{{id}}.json` stays one file name. A path through a `.git` directory
 * is refused too (ResourceInputError): what is there is never served (it can hold credentials).
 */
export function filePathOf(found: FoundResource): string | undefined {
  const relative = relativePathOf(found);
  if (relative !== undefined && hasGitSegment(relative)) {
    throw new ResourceInputError(`Resource ${found.uri} names ${relative}: .git and what lies inside it are never served (it can hold credentials, such as a token in a remote URL).`);
  }
  return relative;
}

function relativePathOf(found: FoundResource): string | undefined {
  const { content } = found.resource;
  switch (content.kind) {
    case 'file':
      return content.path;
    case 'files':
      return found.path;
    case 'file-template':
      for (const [name, value] of Object.entries(found.values ?? {})) {
        if (value === '.' || value === '..' || /[\\/]/.test(value)) {
          throw new ResourceInputError(`The value of {${name}} (${JSON.stringify(value)}) would change the path of a file: "/", "\\", "." and ".." are refused.`);
        }
      }
      return fillText(content.parts, found.values ?? {});
    case 'command':
      return undefined;
  }
}

function checkTemplateValues(resource: PluginResource, values: Readonly<Record<string, string>>, maxLength: number): void {
  try {
    checkValues(values, maxLength);
  } catch (error) {
    throw new ResourceInputError(error instanceof Error ? error.message : String(error));
  }
  for (const [name, value] of Object.entries(values)) {
    const allowed = resource.variables[name]?.enum;
    if (allowed !== undefined && !allowed.includes(value)) {
      throw new ResourceInputError(`{${name}} of ${resource.template?.text ?? resource.name} is one of ${allowed.map((one) => JSON.stringify(one)).join(', ')}; ${JSON.stringify(value)} is not.`);
    }
  }
}

async function readFile(found: FoundResource, relativePath: string): Promise<ResourceContents> {
  const { resource } = found;
  let bytes: Buffer;
  try {
    // Opened, then checked for what was opened; no .git, no second name outside (open-contained).
    bytes = await readContainedBytes({ basePath: resource.folder.path, path: relativePath, refuseGitDirectory: true, refuseHardLinks: true }, resource.maxSize);
  } catch (error) {
    throw new ResourceReadError(`Resource ${found.uri} (${relativePath}) could not be read: ${error instanceof Error ? error.message : String(error)}.`);
  }
  return contentsOf(found.uri, resource.mimeType ?? mimeTypeOf(path.basename(relativePath)), bytes);
}

/**
 * A command's stdout as the contents: its bytes kept as they are (text or a base64 blob by the
 * MIME type, as a file's are), and the program stopped as soon as it prints more than `maxSize`.
 */
async function runCommand(found: FoundResource, argv: readonly string[], context: ResourceReadContext): Promise<ResourceContents> {
  const { resource } = found;
  const [file = '', ...args] = argv;
  const timeoutMs = resource.timeoutMs ?? context.limits.timeoutMs;
  const tooMuch = new AbortController();
  const stdout = new MediaBytes(resource.maxSize);
  const outcome = await runProcess({
    file,
    args,
    cwd: resource.folder.path,
    env: context.env,
    timeoutMs,
    maxOutputBytes: resource.maxSize,
    signal: context.signal === undefined ? tooMuch.signal : AbortSignal.any([context.signal, tooMuch.signal]),
    onStdout: (chunk) => {
      stdout.push(chunk);
      if (stdout.droppedBytes > 0) {
        tooMuch.abort();
      }
    },
  });
  if (stdout.droppedBytes > 0) {
    throw new ResourceReadError(`The command of resource ${found.uri} (${file}) printed more than ${resource.maxSize} bytes (its maxSize); nothing was served.`);
  }
  const end = classifyOutcome(outcome, timeoutMs);
  if (end.kind !== 'ok') {
    const printed = outcome.stderr.trim();
    throw new ResourceReadError(`The command of resource ${found.uri} (${file}) ${endedHow(end)}${printed === '' ? '' : `: ${printed.slice(0, 2000)}`}.`);
  }
  return contentsOf(found.uri, resource.mimeType ?? 'text/plain', stdout.bytes());
}

/** Text when the type is textual and the bytes are UTF-8, else a base64 blob. */
export function contentsOf(uri: string, mimeType: string, bytes: Buffer): ResourceContents {
  return isTextual(mimeType, bytes) ? { uri, mimeType, text: bytes.toString('utf8') } : { uri, mimeType, blob: bytes.toString('base64') };
}
