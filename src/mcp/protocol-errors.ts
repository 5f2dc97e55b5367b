/**
 * The errors of core's prompt and completion requests as JSON-RPC errors: what the client must
 * change (an unknown prompt or template, arguments that do not fit) is `-32602`; a completion
 * source that failed is `-32603`; both keep core's message, which names what was wrong.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { CompletionError } from '../core/completions';
import { PromptArgumentError, PromptNotServedError } from '../core/prompts';
import { UnknownTemplateVariableError } from '../core/resources/complete-variable';

/** Runs `work`, turning core's request errors into protocol errors. */
export async function asProtocolErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PromptNotServedError || error instanceof PromptArgumentError || error instanceof UnknownTemplateVariableError) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
    }
    if (error instanceof CompletionError) {
      throw new ProtocolError(ProtocolErrorCode.InternalError, `Completion failed: ${error.message}`);
    }
    throw error;
  }
}
