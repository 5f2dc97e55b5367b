/** Prompts from plugin files: compiled at load (compile.ts), rendered on request (render.ts). */
export type { PromptArgumentSpec, PromptMessageSpec, PromptSpec } from './spec';
export type { CompiledMessage, PromptArgument, PromptContent, PromptDefinition, PromptSource, RenderedPrompt } from './prompt';
export { PromptArgumentError, PromptNotServedError } from './prompt';
export type { CompiledPrompt } from './compile';
export { compilePrompt } from './compile';
export type { RenderOptions } from './render';
export { renderPrompt } from './render';
