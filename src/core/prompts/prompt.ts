/**
 * A prompt as loading leaves it: what lists it (name, title, description, arguments) and what
 * renders it (render.ts), compiled once from its spec (compile.ts). Nothing here speaks MCP: the
 * doors word the rendered messages for their clients.
 */
import type { CompletionSource } from '../completions/source';
import type { TemplatePart } from '../templates';
import type { WorkspaceFolder } from '../types';

/** One argument, as listed and completed. */
export interface PromptArgument extends CompletionSource {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required: boolean;
}

/** Where a prompt was defined (1-based position of its object in the file). */
export interface PromptSource {
  readonly pluginName: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** A message, compiled: its role and what it is made from. */
export type CompiledMessage =
  | { readonly role: 'user' | 'assistant'; readonly kind: 'text'; readonly parts: readonly TemplatePart[] }
  | { readonly role: 'user' | 'assistant'; readonly kind: 'file' | 'image'; readonly path: readonly TemplatePart[]; readonly written: string };

/** A loaded prompt. */
export interface PromptDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: readonly PromptArgument[];
  readonly messages: readonly CompiledMessage[];
  readonly source: PromptSource;
  /** The workspace folder its files are read from and its completion commands run in. */
  readonly folder: WorkspaceFolder;
  /** What it reads and runs, for the approval dialog. */
  readonly approvalLines: readonly string[];
}

/** What one message of a rendered prompt holds. */
export type PromptContent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly data: string; readonly mimeType: string }
  | {
      readonly type: 'resource';
      readonly resource: { readonly uri: string; readonly mimeType: string } & ({ readonly text: string } | { readonly blob: string });
    };

/** A rendered prompt: its description and messages, in order. */
export interface RenderedPrompt {
  readonly description?: string;
  readonly messages: ReadonlyArray<{ readonly role: 'user' | 'assistant'; readonly content: PromptContent }>;
}

/**
 * Arguments that do not fit the prompt (a missing required one, an unknown one, a value outside
 * `enum`), or a file a message names that cannot be served: worded for the person who asked.
 */
export class PromptArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PromptArgumentError';
  }
}

/** A prompt that is not served: no prompt has the name, or its file waits for approval. */
export class PromptNotServedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PromptNotServedError';
  }
}
