/**
 * One tool of a plugin file, from its schema-valid spec to a ToolDefinition: a handler compiled
 * once against the tool's input schema and folder, a list of steps, or an alias (resolved by the
 * registry once every tool is known), with its declared tests; or the problems that keep it from
 * loading.
 */
import { handlerTypeOf } from '../handlers';
import type { HandlerProblem } from '../handlers/handler';
import { hasProblems } from '../handlers/handler';
import type { ToolTest } from '../types';
import { buildSteps } from './build-steps';
import { confirmApprovalLine, confirmProblems, schemaWithAnswers, withConfirm } from './confirm';
import type { BuildContext, BuiltTool } from './tool-parts';
import { NO_PARAMETERS, handlerTarget, identityOf } from './tool-parts';
import { effectiveTags, misplacedSandboxProblem, osSandbox, sandboxBlockProblems } from './declared-sandbox';
import { schemaPatternProblems } from './schema-patterns';
import type { PluginToolSpec } from './plugin-types';
import { finishNow, type Pausable } from '../turns';

const KINDS = ['handler', 'steps', 'alias'] as const;

/**
 * Builds a tool that passed the schema. A handler's compile is other code that may have a bug:
 * if it throws, that becomes a problem of this tool, not a failed load of the file.
 */
export function buildTool(spec: PluginToolSpec, context: BuildContext): BuiltTool {
  return finishNow(buildingTool(spec, context));
}

/** buildTool, pausing between the steps of a steps tool (turns.ts): a tool may have 1,000. */
export function* buildingTool(spec: PluginToolSpec, context: BuildContext): Pausable<BuiltTool> {
  const kinds = KINDS.filter((kind) => spec[kind] !== undefined);
  if (kinds.length !== 1) {
    return { problems: [{ path: [], message: `a tool has exactly one of "handler", "steps" or "alias"; this one has ${kinds.map((kind) => `"${kind}"`).join(' and ')}` }] };
  }
  // Every problem at once: a misplaced property or an unsupported pattern does not keep the
  // handler's own problems (placeholders, shell operators) from being found in the same pass.
  const problems = [
    ...misplacedProblems(spec),
    ...(spec.sandbox === undefined ? [] : sandboxBlockProblems(spec.sandbox, context.folder.path, ['sandbox'])),
    ...schemaPatternProblems(spec.inputSchema).map((problem) => ({ ...problem, path: ['inputSchema', ...problem.path] })),
  ];
  const built = spec.alias !== undefined ? buildAlias(spec, spec.alias, context) : spec.steps !== undefined ? yield* buildSteps(spec, spec.steps, context) : buildHandlerTool(spec, context);
  if ('problems' in built || problems.length > 0) {
    return { problems: [...problems, ...('problems' in built ? built.problems : [])] };
  }
  const tests = testsOf(spec, context);
  return { tool: tests.length === 0 ? built.tool : { ...built.tool, tests } };
}

/** Properties that belong to another kind of tool. */
function misplacedProblems(spec: PluginToolSpec): HandlerProblem[] {
  const problems: HandlerProblem[] = [];
  if (spec.defaults !== undefined && spec.alias === undefined) {
    problems.push({ path: ['defaults'], message: '"defaults" belongs to an alias ("alias": "<tool>"); in other tools put defaults in inputSchema' });
  }
  if (spec.timeout !== undefined && spec.steps === undefined) {
    problems.push({ path: ['timeout'], message: '"timeout" of a tool belongs to a steps tool; a handler has its own "timeout"' });
  }
  if (spec.output !== undefined && spec.handler === undefined) {
    problems.push({ path: ['output'], message: '"output" belongs to a tool with a "handler"; a steps tool or an alias returns what its tools return' });
  }
  if (spec.output?.schema !== undefined && spec.output.format !== 'json') {
    problems.push({ path: ['output', 'schema'], message: 'an output "schema" needs "format": "json"' });
  }
  problems.push(...mediaOutputProblems(spec));
  if (spec.confirm !== undefined && spec.handler === undefined) {
    problems.push({ path: ['confirm'], message: '"confirm" belongs to a shell or http tool with a "handler"; a steps tool or an alias cannot ask before it runs' });
  }
  if (spec.alias !== undefined && spec.inputSchema !== undefined) {
    problems.push({ path: ['inputSchema'], message: 'an alias takes the input schema of the tool it aliases; set "defaults" instead' });
  }
  const sandboxMisplaced = spec.sandbox === undefined ? undefined : sandboxWithoutProcesses(spec);
  if (sandboxMisplaced !== undefined) {
    problems.push(sandboxMisplaced);
  }
  return problems;
}

/** The problem of a `sandbox` block on a tool that starts no process in the OS sandbox, if it is one. */
function sandboxWithoutProcesses(spec: PluginToolSpec): HandlerProblem | undefined {
  if (spec.alias !== undefined) {
    return misplacedSandboxProblem('an alias', `runs the tool it aliases, in that tool's own sandbox (put the block on "${spec.alias}")`);
  }
  if (spec.steps !== undefined && !spec.steps.some((step) => step.handler?.type === 'shell')) {
    return misplacedSandboxProblem('this steps tool', 'has no shell step');
  }
  const type = spec.handler?.type;
  if (type === undefined || type === 'shell') {
    return undefined;
  }
  const why: Record<string, string> = {
    code: "runs in Node's permission model, which its tags set",
    http: 'starts no process: the server sends the request itself',
    'file-read': 'starts no process: the server reads the files itself',
  };
  return misplacedSandboxProblem(`a ${type} tool`, why[type] ?? 'starts no process in it');
}

/** What is wrong with an image or audio `output` declaration. */
function mediaOutputProblems(spec: PluginToolSpec): HandlerProblem[] {
  const output = spec.output;
  if (output === undefined) {
    return [];
  }
  const media = output.format === 'image' || output.format === 'audio';
  if (!media) {
    return output.mimeType === undefined ? [] : [{ path: ['output', 'mimeType'], message: 'an output "mimeType" belongs to "format": "image" or "audio"' }];
  }
  const type = spec.handler?.type;
  if (type !== undefined && type !== 'shell' && type !== 'http') {
    const how = type === 'code' ? ' (a code tool returns { content: [{ type: "image", data, mimeType }] } itself)' : '';
    return [{ path: ['output', 'format'], message: `"format": "${output.format}" is for shell and http tools, whose stdout or response body is the file; a ${type} tool cannot declare it${how}` }];
  }
  if (output.mimeType === undefined) {
    return [{ path: ['output'], message: `"format": "${output.format}" needs "mimeType" (for example "${output.format === 'image' ? 'image/png' : 'audio/wav'}")` }];
  }
  if (!output.mimeType.toLowerCase().startsWith(`${output.format}/`)) {
    return [{ path: ['output', 'mimeType'], message: `"${output.mimeType}" is not a MIME type of ${output.format === 'image' ? 'an image' : 'audio'}; "format": "${output.format}" needs ${output.format}/...` }];
  }
  return [];
}

function buildHandlerTool(spec: PluginToolSpec, context: BuildContext): BuiltTool {
  const handler = spec.handler;
  if (handler === undefined) {
    return { problems: [{ path: [], message: 'the tool has no "handler"' }] };
  }
  const type = handlerTypeOf(handler);
  const fixed = type.fixedInputSchema;
  if (fixed !== undefined && spec.inputSchema !== undefined) {
    const names = Object.keys(fixed.properties ?? {}).join(', ');
    return { problems: [{ path: ['inputSchema'], message: `a ${handler.type} tool has a fixed input (${names}); remove "inputSchema"` }] };
  }
  const inputSchema = fixed ?? spec.inputSchema ?? NO_PARAMETERS;
  const { confirm } = spec;
  if (confirm !== undefined) {
    const problems = confirmProblems(confirm, handler.type, inputSchema);
    if (problems.length > 0) {
      return { problems };
    }
  }
  let compiled;
  try {
    // A confirm form's answers are input values of the run: the handler may name them.
    compiled = type.compile(handler, handlerTarget(spec.name, confirm === undefined ? inputSchema : schemaWithAnswers(inputSchema, confirm), spec, context));
  } catch (error) {
    return { problems: [{ path: ['handler'], message: `the ${handler.type} handler could not be compiled: ${String(error)}` }] };
  }
  if (hasProblems(compiled)) {
    return compiled;
  }
  return {
    tool: {
      ...identityOf(spec, context),
      inputSchema,
      ...(spec.output?.format === 'json' ? { outputFormat: 'json' as const } : {}),
      ...(spec.output?.format === 'json' && spec.output.schema !== undefined ? { outputSchema: spec.output.schema } : {}),
      tags: effectiveTags(spec.tags ?? type.defaultTags, compiled.impliedTags, spec.sandbox),
      // Only the shell handler's processes run in the OS sandbox; the others say what confines them.
      sandbox: handler.type === 'shell' ? osSandbox(context.folder.path, spec) : { kind: 'own', says: [compiled.confinement ?? `the ${handler.type} handler`] },
      handlerSummary: compiled.summary,
      ...(compiled.programFiles === undefined || compiled.programFiles.length === 0 ? {} : { programFiles: compiled.programFiles }),
      ...(compiled.preview === undefined ? {} : { preview: compiled.preview }),
      approvalLines: confirm === undefined ? compiled.approvalLines : [...compiled.approvalLines, confirmApprovalLine(confirm)],
      run: confirm === undefined ? compiled.run : withConfirm(compiled.run, confirm, spec.name, inputSchema),
    },
  };
}

/**
 * An alias, until the registry resolves it against its base (which may be a built-in or in
 * another file): the base's schema with new defaults, the base's tags unless it sets its own.
 */
function buildAlias(spec: PluginToolSpec, base: string, context: BuildContext): BuiltTool {
  const at = context.locate(['alias']);
  const defaults = spec.defaults ?? {};
  return {
    tool: {
      ...identityOf(spec, context),
      description: spec.description ?? `${base} with ${Object.keys(defaults).join(', ') || 'its own'} defaults`,
      inputSchema: NO_PARAMETERS,
      tags: spec.tags ?? [],
      // The base runs, through the registry, with its own tags: its sandbox is its own.
      sandbox: { kind: 'own', says: [`calls the tool ${base}, which runs in its own sandbox`] },
      handlerSummary: `alias of ${base}`,
      approvalLines: [`calls tool ${base}${Object.keys(defaults).length > 0 ? ` with defaults ${JSON.stringify(defaults)}` : ''}`],
      calls: [{ tool: base, ...at }],
      aliasOf: { base, defaults, ...at },
      run: () => Promise.reject(new Error(`the alias of ${base} was not resolved`)),
    },
  };
}

/** The declared tests, with the position of each. */
function testsOf(spec: PluginToolSpec, context: BuildContext): ToolTest[] {
  return (spec.tests ?? []).map((test, index) => ({
    name: test.name,
    input: test.input ?? {},
    expect: test.expect,
    ...(test.timeoutMs === undefined ? {} : { timeoutMs: test.timeoutMs }),
    ...context.locate(['tests', index]),
  }));
}
