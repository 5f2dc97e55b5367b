/**
 * The approval view of a plugin file: what a person reviews before approving it, built from the
 * file as loaded and its compiled tools (nothing is read or parsed again).
 */
import type { PluginFile } from '../plugins/plugin-file';
import { approvalHashOf } from '../plugins/plugin-file';
import type { PluginDiagnostic, ToolDefinition, ToolTag } from '../types';
import type { ApprovalState } from './approval-policy';

/** What a person reviews before approving a plugin file: exactly the loaded content, and what each tool runs. */
export interface ApprovalSubject {
  readonly file: string;
  readonly pluginName: string;
  /** The text that is shown for review. */
  readonly text: string;
  /** The hash the approval records: of what the file runs (plugins/approval-hash.ts). */
  readonly contentHash: string;
  readonly approval: ApprovalState;
  /** Each tool that loads, with its effective tags and everything it can run. */
  readonly tools: ReadonlyArray<{ readonly name: string; readonly tags: readonly ToolTag[]; readonly runs: readonly string[] }>;
  /** What each resource reads or runs (resources/build-resource.ts), one line each. */
  readonly resources?: readonly string[];
  /** Each prompt that loads, with the files it reads and the completion commands it runs. */
  readonly prompts?: ReadonlyArray<{ readonly name: string; readonly runs: readonly string[] }>;
  /** Problems of the file (the tools they concern do not load, so they run nothing). */
  readonly diagnostics: readonly PluginDiagnostic[];
}

/** A loaded plugin file as the registry holds it (registry/snapshot.ts PluginFileStatus has this shape). */
export interface LoadedFileView {
  readonly loaded: PluginFile;
  readonly file: string;
  readonly pluginName: string;
  readonly approval: ApprovalState;
  /** The tools as registered: their definitions carry the effective tags. */
  readonly tools: ReadonlyArray<{ readonly definition: ToolDefinition }>;
  readonly diagnostics: readonly PluginDiagnostic[];
}

/** What approving `status` would approve: its loaded text and hash, and what each tool runs. */
export function approvalSubjectOf(status: LoadedFileView): ApprovalSubject {
  const { loaded } = status;
  // The registered definition has the effective tags (an alias's come from its base).
  const effectiveTags = new Map(status.tools.map((tool) => [tool.definition.name, tool.definition.tags]));
  return {
    file: status.file,
    pluginName: status.pluginName,
    text: loaded.text,
    contentHash: approvalHashOf(loaded),
    approval: status.approval,
    tools: loaded.tools.map((tool) => ({ name: tool.name, tags: effectiveTags.get(tool.name) ?? tool.tags, runs: tool.approvalLines ?? [tool.handlerSummary] })),
    ...(loaded.resources === undefined ? {} : { resources: loaded.resources.flatMap((resource) => resource.approvalLines) }),
    ...(loaded.prompts === undefined ? {} : { prompts: loaded.prompts.map((prompt) => ({ name: prompt.name, runs: prompt.approvalLines })) }),
    diagnostics: status.diagnostics,
  };
}
