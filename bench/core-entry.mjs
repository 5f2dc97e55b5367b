// Entry of the temp bundle that bench/in-process-child.mjs loads: the core as the server bundles
// it (same esbuild options), so in-process numbers are those of the shipped code.
export { createWorkspaceRegistry } from '../src/core/workspace-registry';
export { ApproveAllPolicy } from '../src/core/approval/approval-policy';
export { InputValidator } from '../src/core/registry/input-validator';
export { DEFAULT_LIMITS } from '../src/core/types';
