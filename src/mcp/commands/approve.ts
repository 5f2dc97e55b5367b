/**
 * `approve`: the terminal's way to approve plugin files. It shows exactly what each file runs,
 * asks, and records the approval of that exact content in the approval store, which every door
 * reads. `--list` shows each file's state instead. Without a terminal it approves only with
 * `--yes`, so nothing is approved by a script that did not mean to.
 */
import { realpath } from 'node:fs/promises';
import type { Interface } from 'node:readline/promises';
import { createInterface } from 'node:readline/promises';
import { StoredApprovalPolicy } from '../../core/approval/approval-policy';
import { ApprovalStore } from '../../core/approval/approval-store';
import { approvalQuestion } from '../../core/approval/approval-question';
import { APPROVAL_MEANING, approvalLines } from '../../core/approval/approval-text';
import type { PluginFileStatus } from '../../core/registry/snapshot';
import { awaitsApproval, servesAnything } from '../../core/registry/snapshot';
import type { ToolRegistry } from '../../core/registry/tool-registry';
import { formatDiagnostic } from '../../core/types';
import type { CliCommand } from '../cli';
import { stderrLogger } from '../stderr-logger';
import { displayPath, setUp, storePathFor } from './setup';
import type { SandboxView, ToolSandboxText } from '../../core/sandbox/tool-sandbox-text';
import { hiddenText, toolSandboxText } from '../../core/sandbox/tool-sandbox-text';
import { tagsText } from '../../core/approval/approval-text';
import { probedSandboxViewFor } from './sandbox-view';

type ApproveCommand = Extract<CliCommand, { command: 'approve' }>;

/** Asks one yes/no question; resolves to the answer. */
type Ask = (question: string) => Promise<boolean>;

/** Approves what was asked for; resolves to 0 when all of it was approved, else 1. */
export async function approve(command: ApproveCommand, scriptPath: string): Promise<number> {
  const { options } = command;
  const logger = stderrLogger(options.logLevel === 'info' ? 'warn' : options.logLevel);
  const { registry, storePath, sandbox } = setUp(options, logger, new StoredApprovalPolicy(storePathFor(options), logger));
  try {
    await registry.initialize();
    const view = await probedSandboxViewFor(options, registry, sandbox);
    if (command.list) {
      printStates(registry.files(), storePath, view);
      return 0;
    }
    const targets = await targetsOf(command, registry, scriptPath);
    if (targets === undefined) {
      return 1;
    }
    if (targets.length === 0) {
      process.stdout.write('No plugin file waits for approval.\n');
      return 0;
    }
    // A store that cannot take an approval is said before the review, not after the user's "y".
    const store = await new ApprovalStore(storePath).read();
    if (!store.ok) {
      process.stderr.write(`workspace-tools-mcp: ${store.problem}. Fix or delete it, then approve again; it was left unchanged.\n`);
      return 1;
    }
    if (!command.yes && process.stdin.isTTY !== true) {
      process.stderr.write('workspace-tools-mcp: approve asks before it approves, and standard input is not a terminal. Review the files, then pass --yes to approve without asking. Nothing was approved.\n');
      return 1;
    }
    const terminal = command.yes ? undefined : createInterface({ input: process.stdin, output: process.stdout });
    const ask: Ask = terminal === undefined ? () => Promise.resolve(true) : (question) => askTerminal(terminal, question);
    try {
      return await approveEach(targets, registry, ask, view);
    } finally {
      terminal?.close();
    }
  } finally {
    registry.dispose();
    sandbox.dispose();
  }
}

/** The files named on the command line, else every file that waits; undefined after an error. */
async function targetsOf(command: ApproveCommand, registry: ToolRegistry, scriptPath: string): Promise<PluginFileStatus[] | undefined> {
  const files = registry.files();
  if (command.files.length === 0) {
    return files.filter(awaitsApproval);
  }
  const byRealPath = new Map(await Promise.all(files.map(async (file) => [await realpath(file.file).catch(() => file.file), file] as const)));
  const targets: PluginFileStatus[] = [];
  for (const requested of command.files) {
    const found = files.find((file) => file.file === requested) ?? byRealPath.get(await realpath(requested).catch(() => requested));
    if (found === undefined) {
      process.stderr.write(
        `workspace-tools-mcp: ${requested} is not a plugin file of this workspace (.vscode/tools/*.json of each --workspace, or a --plugins directory). Run "node ${displayPath(scriptPath)} approve --list" to see them.\n`,
      );
      return undefined;
    }
    targets.push(found);
  }
  return targets;
}

/** Asks about each file in turn (anything but y or yes is no); 0 when every one was approved. */
async function approveEach(targets: readonly PluginFileStatus[], registry: ToolRegistry, ask: Ask, view: SandboxView): Promise<number> {
  let refused = 0;
  for (const target of targets) {
    refused += (await approveOne(target, registry, ask, view)) ? 0 : 1;
  }
  return refused === 0 ? 0 : 1;
}

/** Shows one file and approves its shown content if the answer is yes. */
async function approveOne(target: PluginFileStatus, registry: ToolRegistry, ask: Ask, view: SandboxView): Promise<boolean> {
  const shown = displayPath(target.file);
  if (target.approved) {
    process.stdout.write(`${shown} is already approved.\n`);
    return true;
  }
  if (!servesAnything(target)) {
    process.stderr.write(`${shown} has no tool, prompt or resource that loads, so there is nothing to approve; fix its problems first (run "check").\n`);
    return false;
  }
  const subject = registry.approvalSubject(target.file);
  if (subject === undefined) {
    process.stderr.write(`${shown} is no longer loaded; run approve again.\n`);
    return false;
  }
  const problems = target.diagnostics.map((diagnostic) => `  ${formatDiagnostic(diagnostic)}`);
  const heading = approvalQuestion(subject, shown);
  process.stdout.write(`\n${heading}\n\n${APPROVAL_MEANING}\n\n${approvalLines(subject, view).join('\n')}\n${problems.length > 0 ? `Problems (these parts do not load):\n${problems.join('\n')}\n\n` : ''}`);
  if (!(await ask(`Approve "${target.pluginName}" (${shown})? [y/N] `))) {
    process.stdout.write(`Not approved: ${shown}\n`);
    return false;
  }
  // Exactly the content shown: the registry refuses if the loaded content is no longer that.
  try {
    await registry.approve(subject.file, subject.contentHash);
  } catch (error) {
    // The store's own words say what is wrong with it and that it was left unchanged.
    process.stderr.write(`workspace-tools-mcp: ${error instanceof Error ? error.message : String(error)}\nNot approved: ${shown}\n`);
    return false;
  }
  process.stdout.write(`Approved: ${shown}\n`);
  return true;
}

/** y or yes approves; anything else, and Ctrl-D or Ctrl-C at the prompt, does not. */
async function askTerminal(terminal: Interface, question: string): Promise<boolean> {
  try {
    return /^\s*y(es)?\s*$/i.test(await terminal.question(question));
  } catch {
    process.stdout.write('\n');
    return false;
  }
}

const STATE_WORDS = { approved: 'approved', changed: 'changed since approval', new: 'new' } as const;

const counted = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** "2 tools, 1 resource, 1 problem": what a file serves and what keeps parts of it from loading. */
function contentsOf(file: PluginFileStatus): string {
  const parts: Array<[number, string]> = [[file.tools.length, 'tool'], [file.prompts.length, 'prompt'], [file.loaded.resources?.length ?? 0, 'resource'], [file.diagnostics.length, 'problem']];
  const shown = parts.filter(([count], index) => count > 0 || index === 0).map(([count, noun]) => counted(count, noun));
  return shown.join(', ');
}

/**
 * Each file's state, and under it each of its tools with its tags and its sandbox (what its
 * processes may do); the paths every sandboxed tool is denied, once at the end.
 */
function printStates(files: readonly PluginFileStatus[], storePath: string, view: SandboxView): void {
  if (files.length === 0) {
    process.stdout.write('No plugin files.\n');
  }
  const width = Math.max(0, ...files.map((file) => STATE_WORDS[file.approval].length));
  const sandboxes: ToolSandboxText[] = [];
  for (const file of files) {
    process.stdout.write(`${STATE_WORDS[file.approval].padEnd(width)}  ${displayPath(file.file)} (${contentsOf(file)})\n`);
    for (const { definition } of file.tools) {
      const sandbox = toolSandboxText(definition, view);
      sandboxes.push(sandbox);
      process.stdout.write(`    • ${definition.name} [${tagsText(definition.tags)}] sandbox: ${sandbox.short}\n`);
    }
  }
  const hidden = hiddenText(sandboxes);
  if (hidden !== undefined) {
    process.stdout.write(view.notSandboxed === undefined ? `Tools in the OS sandbox cannot read: ${hidden}.\n` : `With the sandbox, tools could not read: ${hidden}.\n`);
  }
  process.stderr.write(`Approvals are kept in ${storePath}.\n`);
}
