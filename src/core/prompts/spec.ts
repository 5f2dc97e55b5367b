/**
 * A `prompts` entry of a plugin file as it is after schema validation (schemas/tool-plugin.schema.json
 * is the authority; these types mirror it).
 */
import type { CompleteSpec } from '../completions/source';

/** One argument a prompt takes; `enum` or `complete` says how its value is completed. */
export interface PromptArgumentSpec {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required?: boolean;
  readonly enum?: readonly string[];
  readonly complete?: CompleteSpec;
}

/** One message: exactly one of `text` (a template), `file` (embedded) or `image`, each a path template. */
export interface PromptMessageSpec {
  readonly role: 'user' | 'assistant';
  readonly text?: string;
  readonly file?: string;
  readonly image?: string;
}

/** One entry of `prompts`. */
export interface PromptSpec {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly PromptArgumentSpec[];
  readonly messages: readonly PromptMessageSpec[];
}
