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
import { BUILTIN_TOOLS } from '../core/builtins';
import { EDITOR_TOOL_NAMES, EDITOR_TOOL_SPECS, EDITOR_TOOL_TAGS } from '../core/editor-bridge/editor-tool-specs';
import type { JsonObjectSchema, ToolDefinition } from '../core/types';
import { PROJECT_SERVER_SERVES_BUILTINS } from './context-keys';

/** What an lm tool's manifest entry is built from: the engine's definition, without its run. */
export type LmToolSource = Pick<ToolDefinition, 'name' | 'title' | 'description' | 'tags' | 'inputSchema'>;

/**
 * Every tool this extension declares as a language model tool: the built-ins, then the editor
 * tools (core/editor-bridge), which are not built-ins (they ask VS Code, and no MCP server serves
 * them but through a window's bridge) but are served to chat the same way.
 */
export const LM_TOOLS: readonly LmToolSource[] = [...BUILTIN_TOOLS, ...EDITOR_TOOL_SPECS.map((spec) => ({ ...spec, tags: EDITOR_TOOL_TAGS }))];

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
  'editor-diagnostics': {
    verb: 'get',
    toolReferenceName: 'editorDiagnostics',
    icon: '$(warning)',
    userDescription: "The Problems panel: errors and warnings from the editor's language services.",
    tags: ['editor'],
  },
  'editor-definition': {
    verb: 'get',
    toolReferenceName: 'editorDefinition',
    icon: '$(symbol-function)',
    userDescription: 'Where a symbol is defined (Go to Definition).',
    tags: ['editor'],
  },
  'editor-references': {
    verb: 'get',
    toolReferenceName: 'editorReferences',
    icon: '$(references)',
    userDescription: 'Every use of a symbol across the workspace (Find All References).',
    tags: ['editor'],
  },
  'editor-symbols': {
    verb: 'get',
    toolReferenceName: 'editorSymbols',
    icon: '$(symbol-class)',
    userDescription: "Search the workspace's symbols, or list a file's outline.",
    tags: ['editor'],
  },
  'editor-hover': {
    verb: 'get',
    toolReferenceName: 'editorHover',
    icon: '$(symbol-variable)',
    userDescription: 'The type and documentation the hover shows at a position.',
    tags: ['editor'],
  },
  'editor-open-files': {
    verb: 'get',
    toolReferenceName: 'editorOpenFiles',
    icon: '$(files)',
    userDescription: 'The open editors, and the active one with its selection.',
    tags: ['editor'],
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
  /** Hidden while a project file's server serves the same tool (context-keys.ts); none for an editor tool, which no such server serves. */
  readonly when?: string;
}

/** The lm presentation of an engine tool; throws for a tool that has none (a new built-in). */
export function presentationOf(engineName: string): LmToolPresentation {
  const presentation = LM_TOOL_PRESENTATION[engineName];
  if (presentation === undefined) {
    throw new Error(`Tool "${engineName}" has no entry in LM_TOOL_PRESENTATION (src/extension/lm-tool-names.ts).`);
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
export function lmToolManifestEntry(tool: LmToolSource): LmToolManifestEntry {
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
    ...(EDITOR_TOOL_NAMES.includes(tool.name) ? {} : { when: `!${PROJECT_SERVER_SERVES_BUILTINS}` }),
  };
}
