/**
 * The one place a built-in applies the rule of process/outcome.ts: a program that ran and ended
 * badly deep inside it (git or ripgrep timed out, was cancelled, failed) is thrown there as a
 * ProcessEndedError and returned here as the tool's error result; anything else thrown (wrong
 * input, a program that could not start) stays thrown, for the registry to word.
 */
import { ProcessEndedError } from '../process/outcome';
import { errorResult } from '../types';
import type { ToolDefinition } from '../types';

/** `definition` with its run following the rule. */
export function builtinTool(definition: ToolDefinition): ToolDefinition {
  return {
    ...definition,
    async run(input, context) {
      try {
        return await definition.run(input, context);
      } catch (error) {
        if (error instanceof ProcessEndedError) {
          return errorResult(error.message);
        }
        throw error;
      }
    },
  };
}
