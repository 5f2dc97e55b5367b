/**
 * How a tool call fails. Tools and handlers throw; the registry alone turns a throw into the
 * error result the model reads, always worded the same way (errorResultFor).
 */
import type { ToolResult } from './types';
import { errorResult } from './types';

/** Input the model must change: a value refused before anything ran, a path outside the folder. */
export class ToolInputError extends Error {
  override readonly name = 'ToolInputError';
}

/**
 * A tool whose definition changed on disk since it was loaded (a code tool's module): it did not
 * run, and the registry reloads, so the changed content waits for approval like any change.
 */
export class StaleToolError extends Error {
  override readonly name = 'StaleToolError';
}

/**
 * The error result for a throw out of tool `name`: "Invalid input for tool ..." with what to fix
 * for a ToolInputError, else "Tool ... failed: <reason>".
 */
export function errorResultFor(name: string, error: unknown): ToolResult {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ToolInputError) {
    return errorResult(`Invalid input for tool "${name}":\n${message}\nFix the arguments and call the tool again.`);
  }
  return errorResult(`Tool "${name}" failed: ${message}`);
}

/** The one wording of a door that cannot ask the user a question, with its reason. */
export function cannotAskError(reason: string): Error {
  return new Error(`this client cannot ask the user: ${reason}`);
}
