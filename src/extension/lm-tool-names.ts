/**
 * How each built-in tool is presented as a VS Code language model tool: its lm name, `#`
 * reference, icon and user-facing text, and the `contributes.languageModelTools` entry built
 * from the one engine definition. No `vscode` import: scripts/sync-manifest.mjs writes the
 * manifest from it and a plain-Node test checks package.json against it.
 *
 * Naming: `workspaceTools_` + a verb + the engine name in snake case (the verb is left out when
 * the engine name starts with one: `list-files`). The engine name stays recognisable in the lm
 * name because it is what the tree view, the `disabledTools` setting and MCP clients show.
 */
import type { JsonObjectSchema, ToolDefinition } from '../core/types';
import { PROJECT_SERVER_SERVES_BUILTINS } from './context-keys';

/** Every lm tool name of this extension starts with it. */
export const LM_TOOL_PREFIX = 'workspaceTools_';

/** The lm-only presentation of one built-in tool. */
export interface LmToolPresentation {
  /** Verb put before the engine name; empty when the engine name already starts with one. */
  readonly verb: 'get' | 'read' | '';
  /** `#name` in chat. */
  readonly toolReferenceName: string;
  /** A codicon, `$(name)`. */
  readonly icon: string;
  /** What the user reads in the tools picker. */
  readonly userDescription: string;
  /** Extra tags besides the engine's tags (which say what the tool does to the world). */
  readonly tags: readonly string[];
}

/** Keyed by engine tool name; the manifest test fails when a built-in has no entry here. */
export const LM_TOOL_PRESENTATION: Readonly<Record<string, LmToolPresentation>> = {
  'git-status': {
    verb: 'get',
    toolReferenceName: 'gitStatus',
    icon: '$(source-control)',
    userDescription: 'Show the branch and the changed, staged and untracked files of a workspace folder.',
    tags: ['git'],
  },
  'git-diff-summary': {
    verb: 'get',
    toolReferenceName: 'gitDiffSummary',
    icon: '$(diff)',
    userDescription: 'Summarize the uncommitted (or staged) changes: files and lines added and removed.',
    tags: ['git'],
  },
  'git-log': {
    verb: 'get',
    toolReferenceName: 'gitLog',
    icon: '$(history)',
    userDescription: 'List recent commits of a workspace folder.',
    tags: ['git'],
  },
  'workspace-info': {
    verb: 'get',
    toolReferenceName: 'workspaceInfo',
    icon: '$(info)',
    userDescription: 'Describe the workspace: folders, git branch and remote.',
    tags: ['workspace'],
  },
  'file-reader': {
    verb: 'read',
    toolReferenceName: 'readWorkspaceFile',
    icon: '$(file-text)',
    userDescription: 'Read a text file, or a range of its lines, inside the workspace.',
    tags: ['files'],
  },
  'list-files': {
    verb: '',
    toolReferenceName: 'listWorkspaceFiles',
    icon: '$(list-tree)',
    userDescription: 'List the files of a workspace folder, optionally filtered.',
    tags: ['files'],
  },
  'search-text': {
    verb: '',
    toolReferenceName: 'searchWorkspaceText',
    icon: '$(search)',
    userDescription: 'Search the text of the workspace files.',
    tags: ['files', 'search'],
  },
};

/** A `contributes.languageModelTools` entry, as written to package.json. */
export interface LmToolManifestEntry {
  readonly name: string;
  readonly displayName: string;
  readonly toolReferenceName: string;
  readonly canBeReferencedInPrompt: true;
  readonly icon: string;
  readonly userDescription: string;
  readonly modelDescription: string;
  readonly tags: readonly string[];
  readonly inputSchema: JsonObjectSchema;
  /** Hidden while a project file's server serves the same tool (context-keys.ts). */
  readonly when: string;
}

/** The lm presentation of an engine tool; throws for a tool that has none (a new built-in). */
export function presentationOf(engineName: string): LmToolPresentation {
  const presentation = LM_TOOL_PRESENTATION[engineName];
  if (presentation === undefined) {
    throw new Error(`Built-in tool "${engineName}" has no entry in LM_TOOL_PRESENTATION (src/extension/lm-tool-names.ts).`);
  }
  return presentation;
}

/** `git-status` -> `workspaceTools_get_git_status`. */
export function lmToolName(engineName: string): string {
  const { verb } = presentationOf(engineName);
  const noun = engineName.replace(/-/g, '_');
  return `${LM_TOOL_PREFIX}${verb === '' ? '' : `${verb}_`}${noun}`;
}

/** The manifest entry of a built-in: schema and model text come straight from the engine. */
export function lmToolManifestEntry(tool: ToolDefinition): LmToolManifestEntry {
  const presentation = presentationOf(tool.name);
  return {
    name: lmToolName(tool.name),
    displayName: tool.title ?? tool.name,
    toolReferenceName: presentation.toolReferenceName,
    canBeReferencedInPrompt: true,
    icon: presentation.icon,
    userDescription: presentation.userDescription,
    modelDescription: tool.description,
    tags: ['workspaceTools', ...tool.tags, ...presentation.tags],
    inputSchema: tool.inputSchema,
    when: `!${PROJECT_SERVER_SERVES_BUILTINS}`,
  };
}
