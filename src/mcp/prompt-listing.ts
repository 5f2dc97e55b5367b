/**
 * Prompts as MCP describes them, without the SDK: a prompt's `prompts/list` entry, the rendered
 * messages as `prompts/get` content, and when to send `notifications/prompts/list_changed`: only
 * when the served list itself changed (a prompt added, removed, approved, renamed, or its
 * arguments or words changed), never for a reload that left it as it was, and not for the first
 * load (no client saw a list before it: `prompts/list` waits for it).
 */
import type { Disposable, Event } from '../core/registry/emitter';
import type { PromptDefinition } from '../core/prompts';

/** A `prompts/list` entry (MCP's Prompt). */
export interface McpPrompt {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: ReadonlyArray<{ readonly name: string; readonly title?: string; readonly description?: string; readonly required?: boolean }>;
}

/** One prompt as `prompts/list` lists it. */
export function mcpPromptOf(prompt: PromptDefinition): McpPrompt {
  return {
    name: prompt.name,
    ...(prompt.title === undefined ? {} : { title: prompt.title }),
    ...(prompt.description === undefined ? {} : { description: prompt.description }),
    ...(prompt.arguments.length === 0
      ? {}
      : {
          arguments: prompt.arguments.map((argument) => ({
            name: argument.name,
            ...(argument.title === undefined ? {} : { title: argument.title }),
            ...(argument.description === undefined ? {} : { description: argument.description }),
            required: argument.required,
          })),
        }),
  };
}

/** The part of the registry this needs. */
interface ChangingPrompts {
  readonly onDidChange: Event<void>;
  initialize(): Promise<void>;
  prompts(): readonly PromptDefinition[];
}

/** Calls `announce` once for each change of the served prompt list after the first load. */
export function announcePromptListChanges(registry: ChangingPrompts, announce: () => void): Disposable {
  let listed: string | undefined;
  const key = (): string => JSON.stringify(registry.prompts().map(mcpPromptOf));
  void registry.initialize().then(() => {
    listed = key();
  });
  return registry.onDidChange(() => {
    if (listed === undefined) {
      return;
    }
    const now = key();
    if (now !== listed) {
      listed = now;
      announce();
    }
  });
}
