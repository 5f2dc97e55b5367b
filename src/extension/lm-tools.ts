/**
 * Door 1: the built-in tools as VS Code language model tools. Each tool declared in
 * `contributes.languageModelTools` is registered from the one engine definition and runs
 * through the service's registry (input validated by ajv, limits and logging applied there).
 */
import * as vscode from 'vscode';
import { resolveFolder } from '../core/builtins';
import type { ToolInput } from '../core/types';
import { isReadOnly } from '../core/types';
import type { LmToolSource } from './lm-tool-names';
import { LM_TOOLS, lmToolName } from './lm-tool-names';
import { lmPartsOf } from './view-text/lm-parts';
import type { WorkspaceToolsService } from './service';
import { currentFolders } from './service';
import { raiseWalkthroughEvent } from './walkthrough-events';

/** Registers every built-in and editor tool as an lm tool; each registration ends in context.subscriptions. */
export function registerLanguageModelTools(
  context: vscode.ExtensionContext,
  service: WorkspaceToolsService,
  log: vscode.LogOutputChannel,
): void {
  // The walkthrough's first step completes when chat uses a built-in tool.
  const onUsed = (): void => void raiseWalkthroughEvent('usedInChat');
  for (const definition of LM_TOOLS) {
    const name = lmToolName(definition.name);
    context.subscriptions.push(vscode.lm.registerTool<ToolInput>(name, new BuiltinLmTool(definition, service, log, onUsed)));
  }
  log.info(`[lm-tools] registered ${LM_TOOLS.length} language model tools`);
}

/** One built-in tool behind the lm API. */
class BuiltinLmTool implements vscode.LanguageModelTool<ToolInput> {
  constructor(
    private readonly definition: LmToolSource,
    private readonly service: WorkspaceToolsService,
    private readonly log: vscode.LogOutputChannel,
    private readonly onUsed: () => void,
  ) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ToolInput>): vscode.PreparedToolInvocation {
    const input = options.input ?? {};
    const invocationMessage = describeCall(this.definition.name, input, folderLabel(input));
    if (isReadOnly(this.definition.tags)) {
      return { invocationMessage };
    }
    const message = new vscode.MarkdownString(`${this.definition.description}\n\nInput:`);
    message.appendCodeblock(JSON.stringify(input, null, 2), 'json');
    return { invocationMessage, confirmationMessages: { title: `Run ${this.definition.title ?? this.definition.name}?`, message } };
  }

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<ToolInput>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    const { name } = this.definition;
    const started = performance.now();
    const result = await this.service.call(name, options.input, { token, door: 'lm' });
    this.log.debug(`[lm-tools] ${name} took ${(performance.now() - started).toFixed(1)} ms${result.isError ? ' (error result)' : ''}`);
    if (result.refusal?.reason === 'unknown') {
      // Every built-in is registered with VS Code from the manifest; the registry has none of
      // them only when the user turned the built-ins off.
      throw new Error(`The tool "${name}" is turned off: the user disabled the built-in tools (setting workspaceTools.builtins.enabled). Do not call it again in this conversation.`);
    }
    if (result.isError) {
      // The stable lm API has no error result: a thrown error is how VS Code marks the call as
      // failed (as it does for an MCP tool's isError) and hands its message to the model.
      throw new Error(result.text);
    }
    this.onUsed();
    if (result.content === undefined) {
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(result.text)]);
    }
    // The constructor's type (1.101) takes text parts only; `content` takes any part VS Code knows.
    const DataPart = dataPartClass();
    const answer = new vscode.LanguageModelToolResult([]);
    answer.content = lmPartsOf(result.content, DataPart !== undefined).map((part) =>
      part.kind === 'image' && DataPart !== undefined ? new DataPart(part.bytes, part.mimeType) : new vscode.LanguageModelTextPart(part.kind === 'text' ? part.text : ''),
    );
    return answer;
  }
}

/** `vscode.LanguageModelDataPart`, on a VS Code that has it (stable after 1.101, which @types/vscode here is). */
type DataPartClass = new (data: Uint8Array, mimeType: string) => object;

function dataPartClass(): DataPartClass | undefined {
  const candidate = (vscode as unknown as { LanguageModelDataPart?: unknown }).LanguageModelDataPart;
  return typeof candidate === 'function' ? (candidate as DataPartClass) : undefined;
}

/** The folder a call is pointed at, by name, for progress messages. */
function folderLabel(input: ToolInput): string {
  try {
    return resolveFolder(input['folder'], currentFolders()).name;
  } catch {
    return typeof input['folder'] === 'string' ? input['folder'] : 'the workspace';
  }
}

/** What the progress line says while a tool runs, e.g. "Reading README.md lines 1-50 in app". */
function describeCall(name: string, input: ToolInput, folder: string): string {
  const text = (key: string): string | undefined => (typeof input[key] === 'string' ? input[key] : undefined);
  const path = text('path');
  const under = path === undefined ? '' : ` for ${path}`;
  const glob = text('glob');
  const matching = glob === undefined ? '' : ` matching ${glob}`;
  switch (name) {
    case 'git-status':
      return `Running git status${under} in ${folder}`;
    case 'git-diff-summary':
      return `Summarizing ${input['staged'] === true ? 'staged' : 'unstaged'} changes in ${folder}`;
    case 'git-log':
      return `Reading the git log${under} in ${folder}`;
    case 'workspace-info':
      return input['folder'] === undefined ? 'Describing the workspace' : `Describing folder ${folder}`;
    case 'file-reader':
      return `Reading ${path ?? 'a file'}${lineRange(input)} in ${folder}`;
    case 'list-files':
      return `Listing files${matching} in ${folder}`;
    case 'search-text':
      return `Searching for "${text('query') ?? ''}"${matching} in ${folder}`;
    case 'editor-diagnostics':
      return `Reading the Problems panel${under}`;
    case 'editor-definition':
    case 'editor-references':
    case 'editor-hover': {
      const what = { 'editor-definition': 'Finding the definition of', 'editor-references': 'Finding the references to', 'editor-hover': 'Reading the hover at' }[name];
      const line = input['line'];
      const at = text('symbol') ?? `${path ?? 'a file'}${typeof line === 'number' ? `:${line}${typeof input['column'] === 'number' ? `:${input['column']}` : ''}` : ''}`;
      return `${what} ${at}`;
    }
    case 'editor-symbols':
      return text('query') === undefined ? `Reading the outline of ${path ?? 'a file'}` : `Searching the workspace's symbols for "${text('query') ?? ''}"`;
    case 'editor-open-files':
      return 'Reading the open editors';
    default:
      return `Running ${name} in ${folder}`;
  }
}

function lineRange(input: ToolInput): string {
  const start = input['startLine'];
  const end = input['endLine'];
  if (typeof start !== 'number' && typeof end !== 'number') {
    return '';
  }
  return ` lines ${typeof start === 'number' ? start : 1}-${typeof end === 'number' ? end : 'end'}`;
}
