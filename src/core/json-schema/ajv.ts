/**
 * The one way to get an Ajv instance. Ajv is required inside the function, not imported at the
 * top, because loading it costs ~100 ms that start-up must not pay when nothing validates yet.
 */
import type Ajv from 'ajv';
import type { Options } from 'ajv';
import { linearRegExp } from './linear-regexp';

/**
 * The options tool input validation wants: every error at once (so the model can fix them all),
 * `default` values applied, and unknown keywords and formats tolerated because plugin authors
 * write schemas for humans and models, not for Ajv's strict mode. `logger: false` keeps Ajv's
 * "unknown format ignored" warnings off stdout/stderr (stdout is protocol in the MCP server).
 * `validateSchema: false`: every inputSchema was already checked against draft-07 when its
 * plugin file loaded (and the built-ins' are ours, tested), so the meta-schema would only cost
 * the first call ~30 ms more. `code.regExp`: patterns come from plugin files and run on the server's
 * only thread, so they run in a linear-time engine (linear-regexp.ts).
 */
export const TOOL_INPUT_AJV_OPTIONS: Options = {
  allErrors: true,
  useDefaults: true,
  strict: false,
  logger: false,
  validateSchema: false,
  code: { regExp: linearRegExp },
};

/** Creates a new Ajv instance, loading Ajv on first use. `options` replace the defaults above. */
export function createAjv(options: Options = TOOL_INPUT_AJV_OPTIONS): Ajv {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const AjvClass = (require('ajv') as { default: typeof Ajv }).default;
  return new AjvClass(options);
}
