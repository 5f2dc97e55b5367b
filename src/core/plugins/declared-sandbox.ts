/**
 * A tool's `sandbox` block at load: where it may be written (a shell tool, a steps tool with shell
 * steps: the tools whose processes run in the OS sandbox), what is wrong with it (a path to write
 * outside the workspace folder, a path to read that is neither absolute nor `~/`), the tags it
 * adds, and what the built tool says confines it (ToolDefinition.sandbox). The rules themselves
 * are sandbox/policy.ts's: this module only places them in the plugin file.
 */
import type { HandlerProblem } from '../handlers/handler';
import { shellHandler } from '../handlers/shell/handler';
import { checkDeclaredSandbox, policyTags, tagsImpliedBySandbox } from '../sandbox/policy';
import type { DeclaredSandbox, ToolSandbox, ToolTag } from '../types';
import type { PluginToolSpec } from './plugin-types';
import { withTags } from './tool-parts';

/**
 * The problems of a declared block, each at its field (`at` is the path of the block: `['sandbox']`
 * in a tool, `['import', 2, 'taskSandbox', 'publish']` in an import entry).
 */
export function sandboxBlockProblems(declared: DeclaredSandbox, folder: string, at: readonly (string | number)[]): HandlerProblem[] {
  // checkDeclaredSandbox's paths start with 'sandbox' (the block's key in a tool).
  return checkDeclaredSandbox(declared, folder).map((problem) => ({ path: [...at, ...problem.path.slice(1)], message: problem.message }));
}

/**
 * A `sandbox` block on a tool whose work is not in the OS sandbox widens nothing: said at the
 * block rather than accepted in silence. `kind` is what the tool is (`a code tool`, `an alias`).
 */
export function misplacedSandboxProblem(kind: string, why: string): HandlerProblem {
  return { path: ['sandbox'], message: `"sandbox" widens the OS sandbox of the processes a shell tool starts; ${kind} ${why}, so a sandbox block would widen nothing` };
}

/** The tool's effective tags: its own (or the default) with what its handler and its sandbox block imply. */
export function effectiveTags(tags: readonly ToolTag[], handlerImplied: readonly ToolTag[] | undefined, declared: DeclaredSandbox | undefined): readonly ToolTag[] {
  return withTags(withTags(tags, handlerImplied), tagsImpliedBySandbox(declared));
}

/**
 * What confines a tool whose processes run in the OS sandbox: the policy of its declared tags (else
 * the shell handler's default) and block, as the engine builds it from HandlerTarget; `also`
 * says what confines its other steps.
 */
export function osSandbox(folder: string, spec: Pick<PluginToolSpec, 'tags' | 'sandbox'>, also: readonly string[] = []): ToolSandbox {
  const declared = spec.sandbox;
  return { kind: 'os', folder, tags: policyTags(spec.tags ?? shellHandler.defaultTags, declared), ...(declared === undefined ? {} : { declared }), ...(also.length === 0 ? {} : { also }) };
}
