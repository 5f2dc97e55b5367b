/**
 * A multi-step tool, from its `steps` to a ToolDefinition: each step's handler compiled once (its
 * templates may use `{{steps.NAME.stdout}}` and `{{steps.NAME.exitCode}}` of earlier steps), the
 * step names, run conditions and references checked, the tools it calls recorded for the
 * registry's checks (unknown tools, cycles).
 */
import { handlerTypeOf } from '../handlers';
import type { HandlerProblem } from '../handlers/handler';
import { hasProblems } from '../handlers/handler';
import { parseTemplate, placeholderNames, placeholderSpan } from '../templates';
import type { CompiledStep } from '../steps/run-steps';
import { runSteps, stepGroups } from '../steps/run-steps';
import type { JsonObjectSchema, JsonSchema, ToolReference, ToolTag } from '../types';
import type { BuildContext, BuiltTool } from './tool-parts';
import { NO_PARAMETERS, handlerTarget, identityOf } from './tool-parts';
import { effectiveTags, osSandbox } from './declared-sandbox';
import type { PluginToolSpec, StepSpec } from './plugin-types';
import type { Pausable } from '../turns';

/** Builds a steps tool, or gives every problem of its steps (paths relative to the tool). */
export function* buildSteps(spec: PluginToolSpec, steps: readonly StepSpec[], context: BuildContext): Pausable<BuiltTool> {
  const inputSchema = spec.inputSchema ?? NO_PARAMETERS;
  const groups = stepGroups(steps);
  const problems: HandlerProblem[] = [...duplicateNames(steps)];
  const compiled: CompiledStep[] = [];
  const calls: ToolReference[] = [];
  const programFiles = new Set<string>();
  const confinements = new Map<number, string>();
  // Built once for the tool, not once per step: with a thousand steps, per step is quadratic.
  const schemaWithOutputs = withStepOutputs(inputSchema, steps);
  const earlier = earlierSteps(steps, groups);
  for (const [index, step] of steps.entries()) {
    problems.push(...referenceProblems(step, index, earlier(index), inputSchema));
    const built = compileStep(spec, step, index, groups[index] ?? 0, schemaWithOutputs, context);
    if ('problems' in built) {
      problems.push(...built.problems);
    } else {
      compiled.push(built.step);
      built.programFiles?.forEach((file) => programFiles.add(file));
      if (built.confinement !== undefined) {
        confinements.set(index, built.confinement);
      }
    }
    if (step.tool !== undefined && !('problems' in built)) {
      calls.push({ tool: step.tool, ...context.locate(['steps', index, 'tool']) });
    }
    // A turn for the event loop may come between two steps (turns.ts).
    yield;
  }
  if (problems.length > 0) {
    return { problems };
  }
  const others = otherConfinements(steps, confinements);
  return {
    tool: {
      ...identityOf(spec, context),
      inputSchema,
      tags: effectiveTags(spec.tags ?? defaultTags(steps), [...new Set(compiled.flatMap((step) => (step.kind === 'handler' ? (step.impliedTags ?? []) : [])))], spec.sandbox),
      sandbox: steps.some((step) => step.handler?.type === 'shell') ? osSandbox(context.folder.path, spec, others) : { kind: 'own', says: others },
      handlerSummary: `steps: ${summaryOf(steps, groups)}`,
      ...(programFiles.size === 0 ? {} : { programFiles: [...programFiles] }),
      approvalLines: steps.flatMap((step, index) => stepApprovalLines(step, compiled[index])),
      calls,
      run: (input, runContext) => runSteps(compiled, input, runContext, runContext.timeoutMs ?? spec.timeout),
    },
  };
}

/** A step name used twice is an error at its second use. */
function duplicateNames(steps: readonly StepSpec[]): HandlerProblem[] {
  const seen = new Set<string>();
  return steps.flatMap((step, index) => {
    if (!seen.has(step.name)) {
      seen.add(step.name);
      return [];
    }
    return [{ path: ['steps', index, 'name'], message: `the step name "${step.name}" is used twice in this tool; step names must be unique` }];
  });
}

/**
 * The names of the steps that finish before step `index` starts (those of earlier groups), for
 * indexes asked in increasing order: groups never decrease, so one set grows as the steps go.
 */
function earlierSteps(steps: readonly StepSpec[], groups: readonly number[]): (index: number) => ReadonlySet<string> {
  const names = new Set<string>();
  let added = 0;
  return (index) => {
    const group = groups[index] ?? 0;
    for (const step of steps.slice(added, index)) {
      if ((groups[added] ?? 0) >= group) {
        break;
      }
      names.add(step.name);
      added += 1;
    }
    return names;
  };
}

/** runIf and `{{steps.X...}}` must name a step that finished before this one starts. */
function referenceProblems(step: StepSpec, index: number, earlier: ReadonlySet<string>, inputSchema: JsonObjectSchema): HandlerProblem[] {
  const problems: HandlerProblem[] = [];
  const runIf = step.runIf;
  if (typeof runIf === 'object' && !earlier.has(runIf.step)) {
    problems.push({ path: ['steps', index, 'runIf'], message: `runIf names step "${runIf.step}", which is not an earlier step (it must have finished before this one starts)` });
  }
  for (const name of templateNames(step)) {
    const stepName = /^steps\.(.+)\.(stdout|exitCode)$/.exec(name)?.[1];
    if (stepName !== undefined && !earlier.has(stepName)) {
      problems.push({ path: ['steps', index], message: `{{${name}}} refers to step "${stepName}", which is not an earlier step (parallel steps cannot read each other)` });
    }
  }
  if (step.tool !== undefined) {
    const declared = Object.keys(inputSchema.properties ?? {});
    for (const name of placeholdersIn(step.with ?? {}).filter((name) => !name.startsWith('steps.') && !declared.includes(name))) {
      problems.push({ ...withPlace(step.with ?? {}, index, name), message: `Placeholder {{${name}}} names no property of inputSchema.properties (declared: ${declared.join(', ') || 'none'}).` });
    }
  }
  return problems;
}

function compileStep(
  spec: PluginToolSpec,
  step: StepSpec,
  index: number,
  group: number,
  schema: JsonObjectSchema,
  context: BuildContext,
): { step: CompiledStep; programFiles?: readonly string[]; confinement?: string } | { problems: HandlerProblem[] } {
  const common = { name: step.name, group, runIf: step.runIf ?? 'success', continueOnError: step.continueOnError === true, attempts: step.retry?.attempts ?? 1, delayMs: step.retry?.delayMs ?? 0, ...(step.timeout === undefined ? {} : { timeoutMs: step.timeout }) };
  if (step.handler === undefined) {
    const template = Object.entries(step.with ?? {}).map(([key, value]) => [key, typeof value === 'string' ? { template: parseTemplate(value) } : { value }] as const);
    return { step: { ...common, kind: 'tool', tool: step.tool ?? '', with: template } };
  }
  const type = handlerTypeOf(step.handler);
  const compiled = type.compile(step.handler, handlerTarget(`${spec.name}/${step.name}`, type.fixedInputSchema ?? schema, spec, context));
  if (hasProblems(compiled)) {
    return { problems: compiled.problems.map((problem) => ({ ...problem, path: ['steps', index, ...problem.path] })) };
  }
  return {
    step: { ...common, kind: 'handler', run: compiled.run, approvalLines: compiled.approvalLines, ...(compiled.impliedTags === undefined ? {} : { impliedTags: compiled.impliedTags }) },
    ...(compiled.programFiles === undefined ? {} : { programFiles: compiled.programFiles }),
    ...(compiled.confinement === undefined ? {} : { confinement: compiled.confinement }),
  };
}

/** The tool's schema with every step's outputs declared, so handler checks accept `{{steps.X.stdout}}`. */
function withStepOutputs(schema: JsonObjectSchema, steps: readonly StepSpec[]): JsonObjectSchema {
  const outputs: Record<string, JsonSchema> = {};
  for (const step of steps) {
    outputs[`steps.${step.name}.stdout`] = { type: 'string' };
    outputs[`steps.${step.name}.exitCode`] = { type: 'integer' };
  }
  return { ...schema, properties: { ...(schema.properties ?? {}), ...outputs } };
}

/** Every placeholder name in a step's handler and `with`. */
function templateNames(step: StepSpec): string[] {
  return placeholdersIn([step.handler ?? {}, step.with ?? {}]);
}

/** Where `{{name}}` is in a step's `with`: the string value that holds it, else `with` itself. */
function withPlace(values: Readonly<Record<string, unknown>>, index: number, name: string): Pick<HandlerProblem, 'path' | 'span'> {
  for (const [key, value] of Object.entries(values)) {
    const span = typeof value === 'string' ? placeholderSpan(value, name) : undefined;
    if (span !== undefined) {
      return { path: ['steps', index, 'with', key], span };
    }
  }
  return { path: ['steps', index, 'with'] };
}

function placeholdersIn(value: unknown): string[] {
  if (typeof value === 'string') {
    return placeholderNames(value);
  }
  if (Array.isArray(value)) {
    return value.flatMap(placeholdersIn);
  }
  return typeof value === 'object' && value !== null ? Object.values(value).flatMap(placeholdersIn) : [];
}

/**
 * What confines the steps whose work is not in the OS sandbox (its shell steps' is), one line
 * each: what a handler says confines it (a code step's permission model, an http step's request),
 * a tool step's own sandbox.
 */
function otherConfinements(steps: readonly StepSpec[], confinements: ReadonlyMap<number, string>): string[] {
  return steps.flatMap((step, index) => {
    if (step.handler?.type === 'shell') {
      return [];
    }
    if (step.handler === undefined) {
      return [`step ${step.name} calls the tool ${step.tool ?? ''}, which runs in its own sandbox`];
    }
    return [`step ${step.name}: ${confinements.get(index) ?? `the ${step.handler.type} handler`}`];
  });
}

/** What the handler steps can do; tool steps are checked when they call (a read-only tool cannot call more). */
function defaultTags(steps: readonly StepSpec[]): ToolTag[] {
  return [...new Set(steps.flatMap((step) => (step.handler === undefined ? [] : handlerTypeOf(step.handler).defaultTags)))];
}

/** `build → {lint, test} → report`: parallel groups in braces. */
function summaryOf(steps: readonly StepSpec[], groups: readonly number[]): string {
  const byGroup: string[][] = [];
  steps.forEach((step, index) => (byGroup[groups[index] ?? 0] ??= []).push(step.name));
  return byGroup.map((names) => (names.length === 1 ? (names[0] ?? '') : `{${names.join(', ')}}`)).join(' → ');
}

function stepApprovalLines(step: StepSpec, compiled: CompiledStep | undefined): string[] {
  const notes = [
    step.parallel === true ? 'parallel' : '',
    step.runIf === undefined || step.runIf === 'success' ? '' : `runIf ${JSON.stringify(step.runIf)}`,
    step.continueOnError === true ? 'continueOnError' : '',
    step.retry === undefined ? '' : `retry ${step.retry.attempts}×`,
  ].filter((note) => note !== '');
  const heading = `step ${step.name}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}:`;
  if (compiled?.kind === 'handler') {
    return [heading, ...compiled.approvalLines.map((line) => `    ${line}`)];
  }
  return [heading, `    calls tool ${step.tool ?? ''}${step.with === undefined ? '' : ` with ${JSON.stringify(step.with)}`}`];
}
