/**
 * The `file-read` handler: reads text files under a base directory of the workspace folder,
 * with the real path (symlinks resolved) kept inside the real base path.
 */
import * as path from 'node:path';
import { FILE_READ_PROPERTIES, readArguments, readContainedFile } from '../files/read-contained';
import { DEFAULT_MAX_FILE_BYTES } from '../files/read-text';
import { resolveContained } from '../paths/containment';
import type { FileReadHandlerSpec } from '../plugins/plugin-types';
import { errorResult } from '../types';
import type { JsonObjectSchema } from '../types';
import type { HandlerProblem, HandlerStrategy } from './handler-types';

const FILE_READ_INPUT_SCHEMA: JsonObjectSchema = {
  type: 'object',
  properties: FILE_READ_PROPERTIES,
  required: ['path'],
  additionalProperties: false,
};

/** Reads files under `basePath` (relative to the plugin's workspace folder), up to `maxSize`. */
export const fileReadHandler: HandlerStrategy<FileReadHandlerSpec> = {
  fixedInputSchema: FILE_READ_INPUT_SCHEMA,

  check(spec) {
    const problems: HandlerProblem[] = [];
    const basePath = spec.basePath;
    if (basePath !== undefined) {
      if (basePath.includes('\0')) {
        problems.push({ path: ['handler', 'basePath'], message: 'basePath contains a NUL byte.' });
      } else if (path.isAbsolute(basePath) || path.win32.isAbsolute(basePath)) {
        problems.push({
          path: ['handler', 'basePath'],
          message: `basePath "${basePath}" must be relative to the workspace folder, not absolute.`,
        });
      } else if (escapes(basePath)) {
        problems.push({
          path: ['handler', 'basePath'],
          message: `basePath "${basePath}" leaves the workspace folder; it must stay inside it.`,
        });
      }
    }
    if (spec.maxSize !== undefined && (!Number.isInteger(spec.maxSize) || spec.maxSize < 1)) {
      problems.push({ path: ['handler', 'maxSize'], message: 'maxSize must be a positive whole number of bytes.' });
    }
    return problems;
  },

  summarize(spec) {
    return `read files under ${spec.basePath ?? '.'}`;
  },

  create(spec, target) {
    const folder = target.folder.path;
    const maxSize = spec.maxSize ?? DEFAULT_MAX_FILE_BYTES;
    return async (input, context) => {
      const args = readArguments(input);
      let basePath: string;
      try {
        // The base itself must resolve inside the folder: a symlinked basePath cannot widen access.
        basePath = await resolveContained(folder, spec.basePath ?? '.');
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return errorResult(`Tool "${target.toolName}" is misconfigured: basePath: ${reason}`);
      }
      return readContainedFile({ basePath, ...args, maxSize, signal: context.signal });
    };
  },
};

/** True when a relative path climbs above its starting directory (`a/../../b`). */
function escapes(relative: string): boolean {
  const normalized = path.normalize(relative.replace(/\\/g, '/'));
  return normalized === '..' || normalized.startsWith(`..${path.sep}`) || normalized.startsWith('../');
}
