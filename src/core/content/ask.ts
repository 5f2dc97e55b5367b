/**
 * The `ask` a running tool gets (ToolRunContext.ask): the door's, behind the checks every
 * question passes first, so no door sends a question a form cannot show, and every door that
 * cannot ask says so in the same words.
 */
import { cannotAskError } from '../tool-errors';
import type { AskUser, CallOptions, ElicitAnswer, JsonObjectSchema, SchemaCheck } from '../types';
import { elicitSchemaProblem } from './elicit-schema';

/** Longest message a question may have, in characters. */
export const MAX_QUESTION_CHARS = 4000;

/** Why a door that gives no `ask` cannot ask, in words for the model. */
const CANNOT_ASK: Readonly<Record<NonNullable<CallOptions['door']>, string>> = {
  mcp: 'the MCP client did not declare the elicitation capability',
  lm: 'VS Code\'s language model tool API gives a tool no way to ask the user',
  'run-tool': 'Run Tool in VS Code does not ask a tool\'s questions',
  test: 'declared tests run with no one to ask',
  cli: 'the command line has no terminal to ask on',
  bridge: 'a call through the editor bridge has no one to ask but the window (its own confirmation)',
};

/**
 * `ask` with the checks in front (the question) and behind (the answer: what a client sends back
 * is not trusted to fit the form); without one, asking fails with the door's reason.
 */
export function askThrough(ask: AskUser | undefined, door: CallOptions['door'] = 'cli', checkAnswer?: SchemaCheck): AskUser {
  return async (request, signal) => {
    if (typeof request.message !== 'string' || request.message.trim() === '') {
      throw new Error('the question to the user needs a message (a non-empty string)');
    }
    if (request.message.length > MAX_QUESTION_CHARS) {
      throw new Error(`the question to the user is ${request.message.length} characters long; at most ${MAX_QUESTION_CHARS} are shown`);
    }
    const problem = elicitSchemaProblem(request.requestedSchema);
    if (problem !== undefined) {
      throw new Error(problem);
    }
    if (ask === undefined) {
      throw cannotAskError(CANNOT_ASK[door]);
    }
    signal.throwIfAborted();
    const answer = await ask(request, signal);
    return checkedAnswer(answer, request.requestedSchema, checkAnswer);
  };
}

/**
 * The answer as the tool gets it: a known action, and accepted content that fits the form. It
 * sets only the fields the form declares: an answer is the user's reply to this form, and a
 * field beyond it (a client's, or one forged on the way) must not reach the tool, where a
 * `confirm` would merge it into the input.
 */
function checkedAnswer(answer: ElicitAnswer, schema: JsonObjectSchema, check: SchemaCheck | undefined): ElicitAnswer {
  if (answer.action !== 'accept') {
    return { action: answer.action === 'decline' ? 'decline' : 'cancel' };
  }
  const content = answer.content ?? {};
  const fields = schema.properties ?? {};
  const undeclared = Object.keys(content).filter((name) => !Object.hasOwn(fields, name));
  if (undeclared.length > 0) {
    const asked = Object.keys(fields).map((name) => `"${name}"`).join(', ') || 'none';
    throw new Error(`the user's answer sets ${undeclared.map((name) => `"${name}"`).join(', ')}, which the form does not ask for (its fields: ${asked}); an answer may set only the form's fields`);
  }
  const checked = check?.(schema, content, 'answer');
  if (checked !== undefined && !checked.ok) {
    throw new Error(`the user's answer does not fit the form: ${checked.message}`);
  }
  return { action: 'accept', content };
}
