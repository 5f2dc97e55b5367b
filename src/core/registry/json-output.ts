/**
 * Plugin tools with `"output": { "format": "json" }`: a successful result's stdout (an http
 * tool's body) parsed into structured data, checked against the tool's outputSchema. Output
 * that is not a JSON object, or does not match, turns the result into an error that shows what
 * came back (its details kept, for steps and tests).
 */
import type { InputCheck } from './input-validator';
import type { JsonObjectSchema, ToolDefinition, ToolResult } from '../types';
import { errorResult } from '../types';

const SHOWN_CHARS = 500;

export function withJsonOutput(
  definition: ToolDefinition,
  result: ToolResult,
  check: (schema: JsonObjectSchema, value: unknown) => InputCheck,
): ToolResult {
  const stdout = result.details?.stdout;
  if (result.isError || stdout === undefined) {
    return result;
  }
  const shown = stdout.length > SHOWN_CHARS ? `${stdout.slice(0, SHOWN_CHARS)}…` : stdout;
  const failed = (message: string): ToolResult => ({ ...result, ...errorResult(`The output of "${definition.name}" ${message}`) });
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch (error) {
    return failed(`is not JSON, although its plugin file says "output": { "format": "json" } (${error instanceof Error ? error.message : String(error)}). It began with:\n${shown}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return failed(`is JSON but not an object (MCP structured content is an object). It was:\n${shown}`);
  }
  if (definition.outputSchema !== undefined) {
    const checked = check(definition.outputSchema, parsed);
    if (!checked.ok) {
      return failed(`does not match its output schema:\n${checked.message}\nIt was:\n${shown}`);
    }
  }
  return { ...result, structured: parsed as Record<string, unknown> };
}
