/**
 * The `file-read` handler: reads text files under a base directory of the workspace folder,
 * with the real path (symlinks resolved) kept inside the real base path.
 */
import * as path from 'node:path';
import { FILE_READ_PROPERTIES, readArguments, readContainedFile } from '../../files/read-contained';
import { DEFAULT_MAX_FILE_BYTES } from '../../files/read-text';
import { resolveContainedPath } from '../../paths/containment';
import type { JsonObjectSchema } from '../../types';
import type { HandlerProblem, HandlerType } from '../handler';
import type { FileReadHandlerSpec } from './spec';

const FILE_READ_INPUT_SCHEMA: JsonObjectSchema = {
  type: 'object',
  properties: FILE_READ_PROPERTIES,
  required: ['path'],
  additionalProperties: false,
};

/** Reads files under `basePath` (relative to the plugin's workspace folder), up to `maxSize`. */
export const fileReadHandler: HandlerType<FileReadHandlerSpec> = {
  defaultTags: ['read'],
  fixedInputSchema: FILE_READ_INPUT_SCHEMA,
  compile(spec, target) {
    const problems = checkSpec(spec);
    if (problems.length > 0) {
      return { problems };
    }
    const folder = target.folder.path;
    const maxSize = spec.maxSize ?? DEFAULT_MAX_FILE_BYTES;
    const base = spec.basePath ?? '.';
    return {
      run: async (input, context) => {
        const args = readArguments(input);
        // The base itself must resolve inside the folder: a symlinked basePath cannot widen access.
        const resolved = await resolveContainedPath(folder, base).catch((error: unknown) => {
          throw new Error(`the tool is misconfigured: basePath: ${error instanceof Error ? error.message : String(error)}`);
        });
        // The folder too: basePath could be swapped for a link out between here and the open.
        const result = await readContainedFile({ basePath: resolved.real, within: [resolved.realBase], ...args, maxSize, signal: context.signal });
        return { ...result, details: { ran: `read ${path.join(base, args.path)}` } };
      },
      summary: `read files under ${base}`,
      approvalLines: [`reads files under: ${base} (in the workspace folder)`],
      confinement: `starts no process: the server reads the files itself, only under ${base} in the workspace folder`,
    };
  },
};

function checkSpec(spec: FileReadHandlerSpec): HandlerProblem[] {
  const problems: HandlerProblem[] = [];
  const basePath = spec.basePath;
  if (basePath !== undefined) {
    if (basePath.includes('\0')) {
      problems.push({ path: ['handler', 'basePath'], message: 'basePath contains a NUL byte.' });
    } else if (path.isAbsolute(basePath) || path.win32.isAbsolute(basePath)) {
      problems.push({ path: ['handler', 'basePath'], message: `basePath "${basePath}" must be relative to the workspace folder, not absolute.` });
    } else if (escapes(basePath)) {
      problems.push({ path: ['handler', 'basePath'], message: `basePath "${basePath}" leaves the workspace folder; it must stay inside it.` });
    }
  }
  if (spec.maxSize !== undefined && (!Number.isInteger(spec.maxSize) || spec.maxSize < 1)) {
    problems.push({ path: ['handler', 'maxSize'], message: 'maxSize must be a positive whole number of bytes.' });
  }
  return problems;
}

/** True when a relative path climbs above its starting directory (`a/../../b`). */
function escapes(relative: string): boolean {
  const normalized = path.normalize(relative.replace(/\\/g, '/'));
  return normalized === '..' || normalized.startsWith(`..${path.sep}`) || normalized.startsWith('../');
}
