/**
 * `.vscode/tasks.json` to tools: each `shell`, `process` or `npm` (npm-tasks.ts) task one tool named `task-<label>`,
 * its `${input:id}`s typed parameters, its `dependsOn` chain steps (dependencies first, each
 * once), its problem matchers a function over its output. What cannot be served (a background
 * task, another extension's task type, an editor variable, a `command` input) is listed with
 * the reason, at the task's line:column.
 */
import { homedir } from 'node:os';
import { formatArgv } from '../handlers/shell/command-line';
import { redactSecrets } from '../redact';
import type { ShellHandlerSpec } from '../handlers/shell/spec';
import type { PluginToolSpec } from '../plugins/plugin-types';
import type { JsonSchema } from '../types';
import type { ImportedRun, ImportedTool, ImportResult, NotServed, SourceLocation } from './imported-tool';
import type { ImportOptions } from './import-options';
import { readImportSource } from './import-source';
import { combineMatchers } from './problem-matchers';
import { TaskChains, type Chain, type ChainStep, type Reason } from './task-chains';
import type { TaskCommand } from './task-command';
import { envNameClash, parameterOf, type TaskParameter } from './task-inputs';
import { parseTasksFile, type DeclaredTask, type TasksFile } from './tasks-file';
import { isNpmTask, npmSources, npmTaskCommand, npmTaskLabel, readNpmTasks, type NpmTasks } from './npm-tasks';
import type { VariableContext } from './task-variables';
import { slugOf, toolNameOf } from './tool-names';
import { finishInTurns, finishNow, type Pausable } from '../turns';

/** Where VS Code keeps a folder's tasks. */
export const TASKS_FILE = '.vscode/tasks.json';

/** Imports the tasks of `.vscode/tasks.json` in the folder. */
export async function importVsCodeTasks(options: ImportOptions): Promise<ImportResult> {
  const read = await readImportSource(options.folder, TASKS_FILE);
  if ('absent' in read) {
    return { tools: [], notServed: [], sources: [{ path: TASKS_FILE, content: null }] };
  }
  if ('problem' in read) {
    return { tools: [], notServed: [{ name: TASKS_FILE, reason: read.problem, source: { file: TASKS_FILE, line: 1, column: 1 } }], sources: [] };
  }
  const file = parseTasksFile(read.text, options.platform);
  // The package.json files its npm tasks run scripts of, read first: building tools reads no file.
  const npm = file.ok ? await readNpmTasks(file.tasks, labelOf, options) : { packages: new Map<string, never>(), provided: new Map<string, never>() };
  const sources = [{ path: TASKS_FILE, content: read.text }, ...npmSources(npm.packages)].filter((source, index, all) => all.findIndex((other) => other.path === source.path) === index);
  // In turns (turns.ts): a tasks.json of thousands of tasks must not keep the server from answering.
  return { ...(await finishInTurns(tasksIn(file, options, npm))), sources };
}

/** The tools of a tasks.json text, its npm tasks' package.json files unread (exported for tests of the parts that need no file). */
export function tasksFromText(text: string, options: ImportOptions): Omit<ImportResult, 'sources'> {
  return finishNow(tasksIn(parseTasksFile(text, options.platform), options, { packages: new Map(), provided: new Map() }));
}

function* tasksIn(file: TasksFile, options: ImportOptions, npm: NpmTasks): Pausable<Omit<ImportResult, 'sources'>> {
  if (!file.ok) {
    return { tools: [], notServed: [{ name: TASKS_FILE, reason: file.reason, source: { file: TASKS_FILE, line: file.line, column: file.column } }] };
  }
  const context: VariableContext = { folder: options.folder.path, platform: options.platform, home: options.home ?? homedir() };
  const byLabel = new Map<string, DeclaredTask>();
  for (const task of file.tasks) {
    const label = labelOf(task);
    if (label !== undefined && !byLabel.has(label)) {
      byLabel.set(label, task);
    }
  }
  // The npm tasks VS Code provides that dependsOn names: steps of the tasks that depend on them, not tools of their own.
  for (const [label, task] of npm.provided) {
    if (!byLabel.has(label)) {
      byLabel.set(label, task);
    }
  }
  const builder = new ChainBuilder(byLabel, file.inputs, context, (value) => npmTaskCommand(value, npm.packages, options));
  const tools: ImportedTool[] = [];
  const notServed: NotServed[] = [];
  for (const [index, task] of file.tasks.entries()) {
    const source: SourceLocation = { file: TASKS_FILE, line: task.line, column: task.column };
    const label = labelOf(task);
    const built = label === undefined ? { reason: 'it has no "label" to name it by' } : yield* builder.tool(label, task, source, options.prefix ?? 'task-');
    if ('reason' in built) {
      notServed.push({ name: label ?? `task ${index + 1}`, reason: built.reason, source });
    } else {
      tools.push(built);
    }
    yield;
  }
  return { tools, notServed };
}

/** The task's label; an npm task without one is named as VS Code names it. */
function labelOf(task: DeclaredTask): string | undefined {
  const label = task.value['label'] ?? task.value['taskName'];
  if (typeof label === 'string' && label !== '') {
    return label;
  }
  return isNpmTask(task.value) ? npmTaskLabel(task.value) : undefined;
}

/** Builds each task's tool from its chain (task-chains.ts) and the parameters of the chain's inputs. */
class ChainBuilder {
  private readonly chains: TaskChains;

  constructor(
    byLabel: ReadonlyMap<string, DeclaredTask>,
    private readonly inputs: ReadonlyMap<string, Readonly<Record<string, unknown>>>,
    context: VariableContext,
    npmCommand: ConstructorParameters<typeof TaskChains>[2],
  ) {
    this.chains = new TaskChains(byLabel, context, npmCommand);
  }

  *tool(label: string, task: DeclaredTask, source: SourceLocation, prefix: string): Pausable<ImportedTool | Reason> {
    const name = toolNameOf(prefix, label);
    if ('reason' in name) {
      return name;
    }
    const chain = yield* this.chains.chainOf(label, task);
    if ('reason' in chain) {
      return chain;
    }
    const parameters = this.parameters(chain);
    if ('reason' in parameters) {
      return parameters;
    }
    return assemble(name.name, label, task, source, chain, parameters);
  }

  /** The parameters the chain's inputs become, or why one cannot be a parameter. */
  private parameters(chain: Chain): Map<string, TaskParameter> | Reason {
    const ids = [...new Set(chain.steps.flatMap((step) => step.command?.inputs ?? []))];
    const clash = envNameClash(ids);
    if (clash !== undefined) {
      return { reason: `its inputs "${clash[0]}" and "${clash[1]}" would both be read from the variable of one name` };
    }
    const parameters = new Map<string, TaskParameter>();
    for (const id of ids) {
      const parameter = parameterOf(id, this.inputs.get(id));
      if ('reason' in parameter) {
        return parameter;
      }
      parameters.set(id, parameter);
    }
    return parameters;
  }
}

/** cmd.exe cannot pass a double quote inside a quoted argument intact: such values are refused by the schema. */
const CMD_SAFE_VALUE = '^[^"\\r\\n]*$';

function assemble(name: string, label: string, task: DeclaredTask, source: SourceLocation, chain: Chain, parameters: ReadonlyMap<string, TaskParameter>): ImportedTool {
  const viaCmd = chain.steps.some((step) => step.command?.shellKind === 'cmd');
  const properties: Record<string, JsonSchema> = {};
  for (const [id, parameter] of parameters) {
    properties[id] = viaCmd && !parameter.closed && typeof parameter.schema === 'object' ? { ...parameter.schema, pattern: CMD_SAFE_VALUE } : parameter.schema;
  }
  const required = [...parameters].filter(([, parameter]) => parameter.required).map(([id]) => id);
  const inputSchema = { type: 'object' as const, properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
  const commands = chain.steps.filter((step): step is Required<ChainStep> => step.command !== undefined);
  const handlers = commands.map((step) => withLeadingDash(step.command, parameters));
  const run: ImportedRun =
    commands.length === 1 && commands[0] !== undefined
      ? commands[0].command.run
      : { kind: 'steps', steps: commands.map((step) => ({ name: step.label, run: step.command.run })), ...(chain.parallelAsSequence ? { note: 'VS Code runs these dependencies in parallel; here they run one after another' } : {}) };
  const description = describe(label, task, chain, run);
  const stepNames = uniqueStepNames(commands.map((step) => step.label));
  const spec: PluginToolSpec =
    handlers.length === 1 && handlers[0] !== undefined
      ? { name, description, inputSchema, handler: handlers[0] }
      : { name, description, inputSchema, steps: handlers.map((handler, index) => ({ name: stepNames[index] ?? `step-${index + 1}`, handler })) };
  const matcher = combineMatchers(chain.matchers);
  // What an npm step's package runs (its scripts' programs, the manager's configuration) is approved as the npm-scripts importer's is.
  const programFiles = [...new Set(commands.flatMap((step) => step.command.programFiles ?? []))];
  const notCovered = [...new Set(commands.flatMap((step) => step.command.notCovered ?? []))];
  const body = commands.flatMap((step) => step.command.body ?? []);
  return {
    name,
    taskName: label,
    description,
    inputSchema,
    source,
    run,
    spec,
    ...(matcher === undefined ? {} : { problemMatcher: matcher }),
    ...(programFiles.length === 0 ? {} : { programFiles }),
    ...(notCovered.length === 0 ? {} : { notCovered }),
    ...(body.length === 0 ? {} : { body }),
  };
}

/**
 * A process may take a value that starts with `-` only where no free-text value can start an
 * argument: an argument may begin with a pickString's value (an option the task offers) or with
 * the task's own text, never with a promptString's (that would be argument injection).
 */
function withLeadingDash(command: TaskCommand, parameters: ReadonlyMap<string, TaskParameter>): ShellHandlerSpec {
  const argv = command.handler.command;
  if (!Array.isArray(argv) || command.inputs.length === 0) {
    return command.handler;
  }
  const openAtStart = (argv as readonly string[]).slice(1).some((token) => {
    const first = /^\{\{([a-zA-Z0-9_-]+)\}\}/.exec(token)?.[1];
    return first !== undefined && parameters.get(first)?.closed !== true;
  });
  return openAtStart ? command.handler : { ...command.handler, allowLeadingDash: true };
}

function uniqueStepNames(labels: readonly string[]): string[] {
  const used = new Set<string>();
  return labels.map((label, index) => {
    const base = slugOf(label) || `step-${index + 1}`;
    let name = base;
    for (let n = 2; used.has(name); n++) {
      name = `${base}-${n}`;
    }
    used.add(name);
    return name;
  });
}

/** What the model reads: the task's own `detail`, or what it is, then exactly what it runs. */
function describe(label: string, task: DeclaredTask, chain: Chain, run: ImportedRun): string {
  const detail = typeof task.value['detail'] === 'string' && task.value['detail'] !== '' ? task.value['detail'] : `Runs the VS Code task "${label}" of ${TASKS_FILE}.`;
  const notes = [
    `Runs: ${runText(run)}.`,
    chain.matchers.length > 0 ? `Reports problems found by ${chain.matchers.map((matcher) => matcher.describe).join(', ')}.` : '',
    skippedNote(chain.skippedMatchers),
  ].filter((note) => note !== '');
  return redactSecrets([detail, ...notes].join(' '));
}

/** Which problem matchers are not known here, said in the number there are. */
function skippedNote(skipped: readonly string[]): string {
  if (skipped.length === 0) {
    return '';
  }
  return skipped.length === 1 ? `The problem matcher ${skipped[0] ?? ''} is not known here; its problems are not reported.` : `The problem matchers ${skipped.join(', ')} are not known here; their problems are not reported.`;
}

/** One line for a run: the argv, the shell line, or the steps in order. */
export function runText(run: ImportedRun): string {
  switch (run.kind) {
    case 'process':
      return formatArgv(run.argv);
    case 'shell':
      return redactSecrets(run.commandLine);
    case 'steps':
      return `${run.steps.map((step) => `${step.name}: ${runText(step.run)}`).join(', then ')}${run.note === undefined ? '' : ` (${run.note})`}`;
  }
}
