/**
 * The `dependsOn` chains of tasks.json: for each task, what runs before it (dependencies first,
 * each once) with the problem matchers of all of them. A file anyone can write decides the shape
 * of the graph, so it is walked once, iteratively (an explicit stack: a chain thousands deep
 * cannot overflow the JavaScript stack), each task's chain built once and reused, and a chain is
 * refused past MAX_CHAIN_TASKS tasks: every tool built from a chain compiles each of its steps,
 * so with no cap, a chain of n tasks would cost n² steps (450 tasks stalled the server 22 s).
 */
import { compileProblemMatchers, type ProblemMatcher } from './problem-matchers';
import { taskCommand, type TaskCommand } from './task-command';
import type { Pausable } from '../turns';
import type { DeclaredTask } from './tasks-file';
import type { VariableContext } from './task-variables';
import { resolveToText } from './task-variables';
import { isNpmTask, npmTaskLabel } from './npm-tasks';

/** Why something is not served. */
export type Reason = { readonly reason: string };

/** Most tasks one tool's chain may run (itself and all it depends on, at any depth). */
export const MAX_CHAIN_TASKS = 100;

/** One task of a chain, built: its command (none for a task that only depends on others). */
export interface ChainStep {
  readonly label: string;
  readonly command?: TaskCommand;
}

/** A task with everything it depends on, in the order they run. */
export interface Chain {
  readonly steps: readonly ChainStep[];
  readonly matchers: readonly ProblemMatcher[];
  readonly skippedMatchers: readonly string[];
  readonly parallelAsSequence: boolean;
}

/** Why a chain is not served, and where that began (the task whose own reason it is). */
interface Refused extends Reason {
  readonly origin: { readonly label: string; readonly reason: string };
}

/** A task being walked: its dependencies, and the next one to look at. */
interface Frame {
  readonly label: string;
  readonly task: DeclaredTask;
  readonly dependencies: { readonly labels: readonly string[] } | Reason;
  next: number;
}

/** Builds each task's chain once (memoized), refusing cycles, chains too long and what cannot be served. */
export class TaskChains {
  private readonly chains = new Map<string, Chain | Refused>();

  constructor(
    private readonly byLabel: ReadonlyMap<string, DeclaredTask>,
    private readonly context: VariableContext,
    /** What a task of `"type": "npm"` runs (npm-tasks.ts). */
    private readonly npmCommand: (value: DeclaredTask['value']) => TaskCommand | Reason,
  ) {}

  /** The chain of the task `label` (declared as `task`), or why it is not served. */
  *chainOf(label: string, task: DeclaredTask): Pausable<Chain | Reason> {
    const stack: Frame[] = [this.frame(label, task)];
    const walking = new Set([label]);
    for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
      const next = 'labels' in top.dependencies ? top.dependencies.labels[top.next++] : undefined;
      if (next === undefined) {
        stack.pop();
        walking.delete(top.label);
        this.chains.set(top.label, this.build(top, stack));
        // The first chain asked for may walk thousands of tasks: a turn for the event loop may come between two.
        yield;
        continue;
      }
      const declared = this.byLabel.get(next);
      if (declared !== undefined && !this.chains.has(next) && !walking.has(next)) {
        stack.push(this.frame(next, declared));
        walking.add(next);
      }
    }
    return this.chains.get(label) ?? { reason: 'its dependsOn could not be followed' };
  }

  private frame(label: string, task: DeclaredTask): Frame {
    return { label, task, dependencies: dependenciesOf(task.value['dependsOn']), next: 0 };
  }

  /** A task's chain once those of its dependencies are built; `below` is the walk that led to it (for a circle's path). */
  private build(frame: Frame, below: readonly Frame[]): Chain | Refused {
    const own = this.ownPart(frame);
    if ('reason' in own) {
      return refused(frame.label, own.reason);
    }
    const steps: ChainStep[] = [];
    const seen = new Set<string>();
    const matchers: ProblemMatcher[] = [];
    const skipped: string[] = [];
    let parallel = own.labels.length > 1 && frame.task.value['dependsOrder'] !== 'sequence';
    for (const dependency of own.labels) {
      const chain = this.dependencyChain(frame.label, dependency, below);
      if ('reason' in chain) {
        return chain;
      }
      for (const step of chain.steps.filter((step) => !seen.has(step.label))) {
        seen.add(step.label);
        steps.push(step);
      }
      matchers.push(...chain.matchers);
      skipped.push(...chain.skippedMatchers);
      parallel ||= chain.parallelAsSequence;
      if (steps.length > MAX_CHAIN_TASKS) {
        break;
      }
    }
    if (own.command !== undefined) {
      steps.push({ label: frame.label, command: own.command });
    }
    if (steps.length > MAX_CHAIN_TASKS) {
      return refused(frame.label, `its dependsOn chain runs more than ${MAX_CHAIN_TASKS} tasks, the most one tool runs`);
    }
    return { steps, matchers: [...matchers, ...own.matchers], skippedMatchers: [...skipped, ...own.skipped], parallelAsSequence: parallel };
  }

  /** The chain of one dependency of `label`, or why `label` is not served because of it. */
  private dependencyChain(label: string, dependency: string, below: readonly Frame[]): Chain | Refused {
    if (!this.byLabel.has(dependency)) {
      return refused(label, `it depends on "${dependency}", which tasks.json does not declare`);
    }
    const chain = this.chains.get(dependency);
    if (chain === undefined) {
      // Not built yet while the walk is under `label`: it is on the walk, so the graph goes round.
      const from = dependency === label ? below.length : below.findIndex((frame) => frame.label === dependency);
      const path = [...below.slice(from).map((frame) => frame.label), label, dependency];
      return refused(label, `its dependsOn goes round in a circle: ${path.join(' → ')}`);
    }
    if (!('reason' in chain)) {
      return chain;
    }
    // The reason where the refusal began, not a reason nested once per task of a long chain.
    const origin = chain.origin.label === dependency ? chain.origin.reason : `it depends in turn on "${chain.origin.label}", which is not served: ${chain.origin.reason}`;
    return { reason: `it depends on "${dependency}", which is not served: ${origin}`, origin: chain.origin };
  }

  /** What the task itself adds to its chain: its dependencies' labels, its command and its matchers. */
  private ownPart(frame: Frame): { labels: readonly string[]; command?: TaskCommand; matchers: readonly ProblemMatcher[]; skipped: readonly string[] } | Reason {
    const value = frame.task.value;
    if (value['isBackground'] === true) {
      return { reason: 'it is a background task (isBackground): it keeps running (a watcher, a server), and a tool call waits for its end' };
    }
    const type = value['type'] ?? (value['command'] === undefined ? undefined : 'process');
    if (type !== undefined && type !== 'shell' && type !== 'process' && type !== 'npm') {
      return { reason: `its type is ${JSON.stringify(type)}, a task type another extension provides; only shell, process and npm tasks are served` };
    }
    if ('reason' in frame.dependencies) {
      return frame.dependencies;
    }
    const labels = frame.dependencies.labels;
    if (type === undefined && labels.length === 0) {
      return { reason: 'it has neither a "command" nor "dependsOn": there is nothing to run' };
    }
    const command = type === undefined ? undefined : type === 'npm' ? this.npmCommand(value) : taskCommand(value, type, this.context);
    if (command !== undefined && 'reason' in command) {
      return command;
    }
    const matchers = compileProblemMatchers(value['problemMatcher'], { folder: this.context.folder, resolve: (text) => this.resolve(text) });
    if ('reason' in matchers) {
      return matchers;
    }
    return { labels, ...(command === undefined ? {} : { command }), matchers: matchers.matcher === undefined ? [] : [matchers.matcher], skipped: matchers.skipped };
  }

  private resolve(text: string): string {
    const resolved = resolveToText(text, this.context, 'problem matcher base');
    return 'text' in resolved ? resolved.text : text;
  }
}

function refused(label: string, reason: string): Refused {
  return { reason, origin: { label, reason } };
}

function dependenciesOf(value: unknown): { readonly labels: readonly string[] } | Reason {
  const list = value === undefined ? [] : Array.isArray(value) ? (value as unknown[]) : [value];
  const labels: string[] = [];
  for (const entry of list) {
    // VS Code's npm task named by its definition: the task of that label (npm-tasks.ts).
    const npmLabel = typeof entry === 'object' && entry !== null && !Array.isArray(entry) && isNpmTask(entry as Record<string, unknown>) ? npmTaskLabel(entry as Record<string, unknown>) : undefined;
    if (npmLabel !== undefined) {
      labels.push(npmLabel);
      continue;
    }
    if (typeof entry !== 'string') {
      return { reason: `it depends on ${JSON.stringify(entry)}, a task another extension provides; only tasks of this file, named by label, can be steps` };
    }
    labels.push(entry);
  }
  return { labels };
}
