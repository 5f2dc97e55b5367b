/**
 * A tool's `confirm`: a question the user answers before each run, asked through the door
 * (ToolRunContext.ask, MCP form elicitation). Accepted, the tool runs, with the form's answers as
 * input values; declined or dismissed, nothing runs and the result says so; where the door cannot
 * ask, nothing runs either (the throw becomes the registry's error result). Shell and http tools.
 */
import { elicitSchemaProblem } from '../content/elicit-schema';
import type { HandlerProblem, HandlerRun } from '../handlers/handler';
import { fillText, parseTemplate, undeclaredPlaceholders } from '../templates';
import type { ElicitAnswer, JsonObjectSchema, ToolInput, ToolRunContext } from '../types';
import { errorResult } from '../types';
import type { ConfirmSpec } from './plugin-types';

/** The handler types that take a `confirm`. */
const CONFIRMED_TYPES = new Set(['shell', 'http']);

/** What is wrong with a tool's `confirm` (paths relative to the tool object). */
export function confirmProblems(confirm: ConfirmSpec, handlerType: string | undefined, inputSchema: JsonObjectSchema): HandlerProblem[] {
  if (handlerType === undefined || !CONFIRMED_TYPES.has(handlerType)) {
    const what = handlerType === undefined ? 'a steps tool or an alias' : `a ${handlerType} tool`;
    return [{ path: ['confirm'], message: `"confirm" belongs to a shell or http tool; ${what} cannot ask before it runs${handlerType === 'code' ? ' (a code tool asks with context.elicit)' : ''}` }];
  }
  const declared = inputSchema.properties ?? {};
  const problems: HandlerProblem[] = undeclaredPlaceholders(confirm.message, declared).map((problem) => ({ path: ['confirm', 'message'], ...problem }));
  if (confirm.schema !== undefined) {
    const problem = elicitSchemaProblem(confirm.schema, 'confirm.schema');
    if (problem !== undefined) {
      problems.push({ path: ['confirm', 'schema'], message: problem });
    }
    for (const name of Object.keys(confirm.schema.properties ?? {})) {
      if (Object.hasOwn(declared, name)) {
        problems.push({ path: ['confirm', 'schema', 'properties', name], message: `"${name}" is already an input property; a confirm field needs a name of its own (its answer becomes an input value)` });
      }
    }
  }
  return problems;
}

/** The input schema the handler is compiled against: the tool's, plus the form's fields (answers are input values). */
export function schemaWithAnswers(inputSchema: JsonObjectSchema, confirm: ConfirmSpec): JsonObjectSchema {
  const fields = confirm.schema?.properties;
  return fields === undefined ? inputSchema : { ...inputSchema, properties: { ...(inputSchema.properties ?? {}), ...fields } };
}

/** The line approval shows: what the user will be asked. */
export function confirmApprovalLine(confirm: ConfirmSpec): string {
  const fields = Object.keys(confirm.schema?.properties ?? {});
  return `asks the user before each run: "${confirm.message}"${fields.length === 0 ? '' : ` (form fields: ${fields.join(', ')})`}`;
}

/**
 * `run` behind the question: runs only when the user accepts, with the input and the form's
 * fields of the answer (only those: content/ask.ts refuses any other), checked together against
 * the schema the handler was compiled for before anything runs. The answer is not trusted to keep
 * to the form, and the input it joins was checked without it.
 */
export function withConfirm(run: HandlerRun, confirm: ConfirmSpec, toolName: string, inputSchema: JsonObjectSchema): HandlerRun {
  const message = parseTemplate(confirm.message);
  const requestedSchema: JsonObjectSchema = confirm.schema ?? { type: 'object', properties: {} };
  const answeredSchema = schemaWithAnswers(inputSchema, confirm);
  return async (input, context) => {
    const asked = fillText(message, input);
    if (context.ask === undefined) {
      throw new Error(`"${toolName}" asks the user before it runs, and this call has no way to ask; nothing ran.`);
    }
    const answer = await context.ask({ message: asked, requestedSchema }, context.signal).catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}. "${toolName}" asks the user before it runs ("confirm" in its plugin file), so nothing ran.`);
    });
    switch (answer.action) {
      case 'accept':
        return run(answeredInput(input, formFields(answer.content, requestedSchema), answeredSchema, toolName, context), context);
      case 'decline':
        return errorResult(`The user declined to run "${toolName}" (asked: "${asked}"); nothing ran. Do not run it again unless the user asks.`);
      case 'cancel':
        return errorResult(`The user dismissed the question before "${toolName}" (asked: "${asked}") without answering; nothing ran.`);
    }
  };
}

/** The answer's values of the form's fields, and nothing else. */
function formFields(content: ElicitAnswer['content'], form: JsonObjectSchema): ToolInput {
  const fields = form.properties ?? {};
  return Object.fromEntries(Object.entries(content ?? {}).filter(([name]) => Object.hasOwn(fields, name)));
}

/** The input with the answer's fields, as the handler's schema allows it (defaults applied); throws, so nothing runs, when it does not. */
function answeredInput(input: ToolInput, answers: ToolInput, schema: JsonObjectSchema, toolName: string, context: ToolRunContext): ToolInput {
  if (context.checkInput === undefined) {
    throw new Error(`"${toolName}" cannot check the user's answer against its input schema in this call, so nothing ran.`);
  }
  const checked = context.checkInput(schema, { ...input, ...answers });
  if (!checked.ok) {
    throw new Error(`the input with the user's answer does not fit the input schema of "${toolName}", so nothing ran:\n${checked.message}`);
  }
  return checked.input;
}
