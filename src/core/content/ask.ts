/**
 * The `ask` a running tool gets (ToolRunContext.ask): the door's, behind the checks every
 * question passes first, so no door sends a question a form cannot show, and every door that
 * cannot ask says so in the same words.
 */
import { cannotAskError } from '../tool-errors';
import type { AskUser } from '../types';
import { elicitSchemaProblem } from './elicit-schema';

/** Longest message a question may have, in characters. */
export const MAX_QUESTION_CHARS = 4000;

/** `door`'s way of asking with the checks in front; without one, asking fails with the reason. */
export function askThrough(door: AskUser | undefined): AskUser {
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
    if (door === undefined) {
      throw cannotAskError('the way this tool was called (door) has no way to show the user a question');
    }
    signal.throwIfAborted();
    return door(request, signal);
  };
}
