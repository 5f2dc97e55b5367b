/**
 * Readers for the built-in tools' input. The registry has already checked the input against
 * each tool's schema; these keep a handler safe when it is called directly (tests, steps) and
 * throw ToolInputError, so the model reads "fix the arguments", not "the tool failed".
 */
import { ToolInputError } from '../tool-errors';
import type { ToolInput } from '../types';

/** A string input, or undefined when absent or empty. */
export function optionalString(input: ToolInput, key: string): string | undefined {
  const value = input[key];
  if (value === undefined || value === null || value === '') {
    return undefined;
  }
  if (typeof value !== 'string') {
    throw new ToolInputError(`"${key}" must be a string.`);
  }
  return value;
}

/** An integer input clamped to [min, max], or the default when absent. */
export function boundedInteger(
  input: ToolInput,
  key: string,
  bounds: { readonly min: number; readonly max: number; readonly fallback: number },
): number {
  const value = input[key];
  if (value === undefined || value === null) {
    return bounds.fallback;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new ToolInputError(`"${key}" must be a number.`);
  }
  return Math.min(bounds.max, Math.max(bounds.min, Math.trunc(value)));
}

/** True only for the boolean `true`. */
export function flag(input: ToolInput, key: string): boolean {
  return input[key] === true;
}
