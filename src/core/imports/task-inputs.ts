/**
 * tasks.json `inputs` as tool parameters: a `pickString` is a string with its options as an
 * enum, a `promptString` a free string; both keep their description and default. A `command`
 * input runs a VS Code command to get its value, which no other client can: a task that uses one
 * is not served.
 */
import type { JsonSchema } from '../types';
import { inputEnvName } from '../handlers/shell/values';

/** A parameter: its schema, and whether the model must give it (no default). */
export interface TaskParameter {
  readonly schema: JsonSchema;
  readonly required: boolean;
  /** Its values are a closed list (pickString): none can start an argument with `-` unseen. */
  readonly closed: boolean;
}

/** The names a `{{name}}` placeholder accepts (templates/placeholders.ts). */
const PARAMETER_NAME = /^[a-zA-Z0-9_-]+$/;

/** The parameter of input `id`, or why it cannot be one. */
export function parameterOf(id: string, input: Readonly<Record<string, unknown>> | undefined): TaskParameter | { readonly reason: string } {
  if (input === undefined) {
    return { reason: `it uses \${input:${id}}, and "inputs" declares no input with that id` };
  }
  if (!PARAMETER_NAME.test(id)) {
    return { reason: `its input id ${JSON.stringify(id)} is not a parameter name (letters, digits, '_' and '-')` };
  }
  const description = typeof input['description'] === 'string' ? { description: input['description'] } : {};
  const fallback = input['default'];
  const withDefault = typeof fallback === 'string' ? { default: fallback } : {};
  switch (input['type']) {
    case 'promptString':
      return { schema: { type: 'string', ...description, ...withDefault }, required: typeof fallback !== 'string', closed: false };
    case 'pickString': {
      const options = pickOptions(input['options']);
      if (options === undefined) {
        return { reason: `its pickString input "${id}" has no options (strings or { "label", "value" })` };
      }
      return { schema: { type: 'string', enum: options, ...description, ...withDefault }, required: typeof fallback !== 'string', closed: true };
    }
    case 'command':
      return { reason: `its input "${id}" is of type command: it runs a VS Code command to get its value, which a tool call cannot` };
    default:
      return { reason: `its input "${id}" is of type ${JSON.stringify(input['type'])}; only pickString and promptString can be parameters` };
  }
}

function pickOptions(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    return undefined;
  }
  const options: string[] = [];
  for (const option of value as unknown[]) {
    const text = typeof option === 'string' ? option : typeof option === 'object' && option !== null ? (option as Record<string, unknown>)['value'] : undefined;
    if (typeof text !== 'string') {
      return undefined;
    }
    options.push(text);
  }
  return [...new Set(options)];
}

/** Two input ids whose INPUT_ variables would be the same (`a-b` and `a_b`), or undefined. */
export function envNameClash(ids: Iterable<string>): readonly [string, string] | undefined {
  const seen = new Map<string, string>();
  for (const id of ids) {
    const name = inputEnvName(id);
    const other = seen.get(name);
    if (other !== undefined && other !== id) {
      return [other, id];
    }
    seen.set(name, id);
  }
  return undefined;
}
