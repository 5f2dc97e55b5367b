/**
 * Runs a handler type's spec the way the registry runs a plugin tool: input validated against the
 * schema (defaults applied there, the one place), the spec compiled once, and a throw turned into
 * the registry's error result. Tests of one handler use it instead of a whole registry.
 */
import type { HandlerTarget, HandlerType } from '../../../src/core/handlers/handler';
import { hasProblems } from '../../../src/core/handlers/handler';
import type { HandlerProblem } from '../../../src/core/handlers/handler';
import { InputValidator } from '../../../src/core/registry/input-validator';
import { ToolInputError, errorResultFor } from '../../../src/core/tool-errors';
import type { ToolInput, ToolResult, ToolRunContext } from '../../../src/core/types';

const validator = new InputValidator();

/** The problems compiling finds ([] when it compiles). */
export function problemsOf<Spec>(type: HandlerType<Spec>, spec: Spec, target: HandlerTarget): readonly HandlerProblem[] {
  const compiled = type.compile(spec, target);
  return hasProblems(compiled) ? compiled.problems : [];
}

/** The compiled handler; throws with the problems when the spec does not compile. */
export function compiled<Spec>(type: HandlerType<Spec>, spec: Spec, target: HandlerTarget): { run: (input: ToolInput, context: ToolRunContext) => Promise<ToolResult>; summary: string; approvalLines: readonly string[] } {
  const result = type.compile(spec, target);
  if (hasProblems(result)) {
    throw new Error(`the spec does not compile: ${result.problems.map((problem) => problem.message).join('; ')}`);
  }
  return result;
}

/** Compiles and runs once, as the registry does. */
export async function runAsRegistry<Spec>(type: HandlerType<Spec>, spec: Spec, target: HandlerTarget, input: ToolInput, context: ToolRunContext): Promise<ToolResult> {
  const handler = compiled(type, spec, target);
  try {
    const checked = validator.check(target.inputSchema, input);
    if (!checked.ok) {
      throw new ToolInputError(checked.message);
    }
    return await handler.run(checked.input, context);
  } catch (error) {
    return errorResultFor(target.toolName, error);
  }
}
