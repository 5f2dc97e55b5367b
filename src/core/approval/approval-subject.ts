/**
 * The approval view of a plugin file: what a person reviews before approving it, built from the
 * file as loaded and its compiled tools (nothing is read or parsed again).
 */
import { createHash } from 'node:crypto';
import type { PluginFile } from '../plugins/plugin-file';
import { approvalHashOf } from '../plugins/plugin-file';
import type { ProgramFile } from '../plugins/program-files';
import type { PluginDiagnostic, ToolDefinition, ToolSandbox, ToolTag } from '../types';
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
  /** Each tool that loads, with its effective tags, everything it can run and what confines it (approval-text.ts words its sandbox). */
  readonly tools: ReadonlyArray<{ readonly name: string; readonly tags: readonly ToolTag[]; readonly runs: readonly string[]; readonly sandbox?: ToolSandbox }>;
  /** What each resource reads or runs (resources/build-resource.ts), one line each. */
  readonly resources?: readonly string[];
  /** Each prompt that loads, with the files it reads and the completion commands it runs. */
  readonly prompts?: ReadonlyArray<{ readonly name: string; readonly runs: readonly string[] }>;
  /**
   * Every other file the approval covers, by path (relative to the workspace folder): the files
   * its tools run (a program, a script an interpreter is handed) and the files its `import`
   * section read (the task file, configuration that picks the program), with how it is approved
   * (`sha256 <hex>`, `absent`, `present`) and its first lines.
   */
  readonly files?: readonly ProgramFile[];
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
  const registered = new Map(status.tools.map((tool) => [tool.definition.name, tool.definition]));
  return {
    file: status.file,
    pluginName: status.pluginName,
    text: loaded.text,
    contentHash: approvalHashOf(loaded),
    approval: status.approval,
    tools: loaded.tools.map((tool) => {
      const sandbox = registered.get(tool.name)?.sandbox ?? tool.sandbox;
      return { name: tool.name, tags: registered.get(tool.name)?.tags ?? tool.tags, runs: tool.approvalLines ?? [tool.handlerSummary], ...(sandbox === undefined ? {} : { sandbox }) };
    }),
    ...(loaded.resources === undefined ? {} : { resources: loaded.resources.flatMap((resource) => resource.approvalLines) }),
    ...(loaded.prompts === undefined ? {} : { prompts: loaded.prompts.map((prompt) => ({ name: prompt.name, runs: prompt.approvalLines })) }),
    ...(coveredFiles(loaded).length === 0 ? {} : { files: coveredFiles(loaded) }),
    diagnostics: status.diagnostics,
  };
}

/** The files besides the plugin file that its approval covers, each once, by path. */
function coveredFiles(loaded: PluginFile): ProgramFile[] {
  const imported = (loaded.importSources ?? []).map((source): ProgramFile => {
    if (source.content === null) {
      return { path: source.path, state: 'absent' };
    }
    if (source.presenceOnly === true) {
      return { path: source.path, state: 'present' };
    }
    return { path: source.path, state: `sha256 ${createHash('sha256').update(source.content).digest('hex')}`, head: source.content.split(/\r?\n/).slice(0, 5) };
  });
  const all = [...(loaded.programFiles ?? []), ...imported];
  return all.filter((file, index) => all.findIndex((other) => other.path === file.path) === index).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
