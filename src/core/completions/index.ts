/** Completing argument values from a plugin file's `enum` / `complete` (see complete.ts). */
export type { CompleteSpec, CompletionSource } from './source';
export { completionApprovalLines, hasCompletions } from './source';
export type { Completion, CompletionContext } from './complete';
export { complete, CompletionError, MAX_COMPLETION_VALUES, NO_COMPLETION } from './complete';
