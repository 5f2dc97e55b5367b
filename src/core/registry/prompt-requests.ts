/**
 * The requests a door makes about prompts, against one snapshot: get one rendered, complete one
 * of its arguments. A prompt that is not served (unknown, or its file waits for approval) is a
 * PromptNotServedError; arguments that do not fit, a PromptArgumentError (core/prompts).
 */
import type { Completion, CompletionContext } from '../completions';
import { complete } from '../completions';
import type { PromptDefinition, RenderedPrompt } from '../prompts';
import { PromptArgumentError, PromptNotServedError, renderPrompt } from '../prompts';
import type { RegistrySnapshot } from './snapshot';

/** The served prompt `name`, or why it is not served. */
export function servedPrompt(snapshot: RegistrySnapshot, name: string): PromptDefinition {
  const prompt = snapshot.prompts.get(name);
  if (prompt === undefined) {
    const names = snapshot.activePrompts.map((served) => served.name).join(', ') || '(none)';
    throw new PromptNotServedError(`Unknown prompt: ${name}. Available prompts: ${names}.`);
  }
  if (prompt.state !== 'active') {
    throw new PromptNotServedError(`Prompt ${name} is not served: its plugin file ${prompt.definition.source.file} is waiting for approval.`);
  }
  return prompt.definition;
}

/** The served prompt `name` rendered with `args`. */
export function getPrompt(snapshot: RegistrySnapshot, name: string, args: Readonly<Record<string, string>>): Promise<RenderedPrompt> {
  return renderPrompt(servedPrompt(snapshot, name), args);
}

/** Completes the argument `argument` of the served prompt `name` from what was typed (`prefix`). */
export function completePromptArgument(
  snapshot: RegistrySnapshot,
  request: { readonly name: string; readonly argument: string; readonly prefix: string },
  context: Omit<CompletionContext, 'folder'>,
): Promise<Completion> {
  const prompt = servedPrompt(snapshot, request.name);
  const argument = prompt.arguments.find((candidate) => candidate.name === request.argument);
  if (argument === undefined) {
    throw new PromptArgumentError(`Prompt "${prompt.name}" has no argument "${request.argument}".`);
  }
  return complete(argument, request.prefix, { ...context, folder: prompt.folder });
}
