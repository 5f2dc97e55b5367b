/**
 * The parent's side of a sandbox's `elicit` messages: each is handed to the door's `ask` (which
 * checks the question, content/ask.ts) and the answer, or why there is none, written back. The
 * runner asks one question at a time; a sandbox that sends a second before the first is answered
 * (a module writing to fd 3 itself) breaks the protocol and is stopped.
 */
import type { Duplex } from 'node:stream';
import type { AskUser } from '../../types';
import type { ElicitResultMessage } from './protocol';

/** Most questions one call may ask (the MCP SDK re-enters a call at most 8 times); past that each is answered with an error. */
export const MAX_QUESTIONS_PER_CALL = 8;

export interface SandboxQuestionOptions {
  readonly ask?: AskUser;
  /** The call's signal: a cancelled call stops waiting for the answer. */
  readonly signal: AbortSignal;
  readonly onProtocolError: (message: string) => void;
}

/** A sandbox's questions, answered one at a time. */
export class SandboxQuestions {
  private asking = false;
  private asked = 0;

  constructor(
    private readonly pipe: Duplex,
    private readonly options: SandboxQuestionOptions,
  ) {}

  receive(question: { readonly id: number; readonly message: string; readonly requestedSchema: unknown }): void {
    if (this.asking) {
      this.options.onProtocolError('the sandbox asked a second question before the first was answered (the runner asks one at a time)');
      return;
    }
    this.asking = true;
    this.asked += 1;
    void this.answer(question).then((reply) => {
      this.asking = false;
      if (!this.pipe.destroyed && this.pipe.writable) {
        this.pipe.write(`${JSON.stringify(reply)}\n`);
      }
    });
  }

  private async answer(question: { readonly id: number; readonly message: string; readonly requestedSchema: unknown }): Promise<ElicitResultMessage> {
    const { ask, signal } = this.options;
    const { id } = question;
    if (this.asked > MAX_QUESTIONS_PER_CALL) {
      return { type: 'elicitResult', id, error: `a code tool asks at most ${MAX_QUESTIONS_PER_CALL} questions in one call` };
    }
    if (ask === undefined) {
      return { type: 'elicitResult', id, error: 'elicit is not available to this tool here' };
    }
    try {
      const answer = await ask({ message: question.message, requestedSchema: question.requestedSchema as never }, signal);
      return { type: 'elicitResult', id, answer: { action: answer.action, ...(answer.content === undefined ? {} : { content: answer.content }) } };
    } catch (error) {
      return { type: 'elicitResult', id, error: error instanceof Error ? error.message : String(error) };
    }
  }
}
