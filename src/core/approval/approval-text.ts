/**
 * What approving a plugin file allows, in lines a person reads: every tool with its effective
 * tags and everything it can run (for a code tool: its module's path, hash and lines, and what its
 * sandbox allows). Both doors show it (VS Code's approval dialog, the terminal's `approve`); it
 * comes from the compiled tools (ApprovalSubject), not from parsing the file again.
 */
import type { ApprovalSubject } from './approval-subject';
import { programFileText } from '../plugins/program-files';
import type { SandboxView, ToolSandboxText } from '../sandbox/tool-sandbox-text';
import { hiddenText, toolSandboxText } from '../sandbox/tool-sandbox-text';

/**
 * `• name [tags]` then the tool's lines indented, its sandbox last (what its tags and sandbox
 * block let its processes do, or what else confines it), a blank line after each tool; the paths
 * every sandboxed tool is denied are said once, after the tools.
 */
export function approvalLines(subject: ApprovalSubject, view: SandboxView): string[] {
  const prompts = subject.prompts ?? [];
  const resources = (subject.resources ?? []).map((line) => `• ${line}`);
  if (subject.tools.length === 0 && prompts.length === 0 && resources.length === 0) {
    return ['(no tools)'];
  }
  const sandboxes = subject.tools.map((tool) => toolSandboxText({ ...(tool.sandbox === undefined ? {} : { sandbox: tool.sandbox }), source: { kind: 'plugin' } }, view));
  return [
    ...subject.tools.flatMap((tool, index) => [`• ${tool.name} [${tagsText(tool.tags)}]`, ...tool.runs.map((line) => `    ${line}`), ...sandboxLine(sandboxes[index]), '']),
    ...hiddenLines(sandboxes, view),
    ...prompts.flatMap((prompt) => [`• prompt ${prompt.name}`, ...(prompt.runs.length === 0 ? ['    messages only: reads and runs nothing'] : prompt.runs.map((line) => `    ${line}`)), '']),
    ...(resources.length === 0 ? [] : [...resources, '']),
    ...coveredFileLines(subject),
  ];
}

function sandboxLine(text: ToolSandboxText | undefined): string[] {
  return text === undefined ? [] : [`    sandbox: ${text.short}`];
}

/** The paths the OS sandbox hides from every tool above, said once. */
function hiddenLines(sandboxes: readonly ToolSandboxText[], view: SandboxView): string[] {
  const hidden = hiddenText(sandboxes);
  if (hidden === undefined) {
    return [];
  }
  return [view.notSandboxed === undefined ? `Every tool above in the OS sandbox cannot read: ${hidden}.` : `With the sandbox, no tool above could read: ${hidden}.`, ''];
}

/** The other files approval covers: each with its hash (or absent) and its first lines. */
function coveredFileLines(subject: ApprovalSubject): string[] {
  const files = subject.files ?? [];
  if (files.length === 0) {
    return [];
  }
  const absent = files.filter((file) => file.state === 'absent').map((file) => file.path);
  return [
    'Files this approval covers besides the plugin file (a change to any of them, creating or deleting one, asks again):',
    ...files.filter((file) => file.state !== 'absent').flatMap((file) => [`• ${programFileText(file)}`, ...(file.head ?? []).map((line) => `    | ${line}`)]),
    ...(absent.length === 0 ? [] : [`• absent now (creating one asks again): ${absent.join(', ')}`]),
    '',
  ];
}

/** "read, network", or what having no tag means (an untagged tool is not read-only). */
export function tagsText(tags: readonly string[]): string {
  return tags.length > 0 ? tags.join(', ') : 'no tags: asks before each run';
}

/** The sentence that says what approval means, before the lines. */
export const APPROVAL_MEANING =
  'Once approved, chat and MCP clients can run these tools without asking again until what they run changes: any edit of the file ' +
  'other than comments, formatting and descriptions, of a code module it names, of a workspace program or script its tools run, or of a file its import section reads ' +
  '(tools not tagged "read" still ask before each run). Not covered: programs outside the workspace, dependencies such as node_modules, and what a script itself reads or sources.';
