/**
 * Input values as the shell handler sees them: checks that run before anything is spawned, and
 * the INPUT_* variables a script receives. (Defaults were applied when
 * the registry validated the input: in one place, not here again.)
 */
import { isAbsent, stringForm } from '../../templates';
import { ToolInputError } from '../../tool-errors';
import type { JsonObjectSchema, ToolInput } from '../../types';

/**
 * Refuses values that no argument or environment variable can carry safely: NUL bytes (the
 * OS would cut the string there) and strings longer than `maxLength`, at any depth.
 */
export function checkValues(input: ToolInput, maxLength: number): void {
  for (const [name, value] of Object.entries(input)) {
    checkValue(name, value, maxLength);
  }
}

function checkValue(name: string, value: unknown, maxLength: number): void {
  if (typeof value === 'string') {
    if (value.includes('\0')) {
      throw new ToolInputError(
        `Parameter "${name}" contains a NUL character, which cannot be passed to a program. Remove it.`,
      );
    }
    if (value.length > maxLength) {
      throw new ToolInputError(
        `Parameter "${name}" is ${value.length} characters long; the limit is ${maxLength}. Pass a shorter value.`,
      );
    }
  } else if (Array.isArray(value)) {
    value.forEach((item) => checkValue(name, item, maxLength));
  } else if (typeof value === 'object' && value !== null) {
    Object.values(value).forEach((item) => checkValue(name, item, maxLength));
  }
}

/** `INPUT_<NAME>`: the name upper-cased, every character outside [A-Z0-9_] replaced by `_`. */
export function inputEnvName(name: string): string {
  return `INPUT_${name.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}`;
}

/**
 * The environment variables a script receives: one per declared property (undefined when the
 * value is absent, so an INPUT_ variable inherited from the parent cannot pose as input),
 * plus one per other input value.
 */
export function inputEnv(
  input: ToolInput,
  schema: JsonObjectSchema,
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  const names = new Set([...Object.keys(schema.properties ?? {}), ...Object.keys(input)]);
  for (const name of names) {
    const value = input[name];
    env[inputEnvName(name)] = isAbsent(value) ? undefined : stringForm(value);
  }
  return env;
}

/** True when the property's schema says it is an array (`type: 'array'` or a type list with it). */
export function isArrayProperty(schema: JsonObjectSchema, name: string): boolean {
  const property = schema.properties?.[name];
  if (typeof property !== 'object') {
    return false;
  }
  const type = property['type'];
  return type === 'array' || (Array.isArray(type) && type.includes('array'));
}
