/**
 * Tools run as MCP tasks (issue 39), in both protocol revisions, over one store of the
 * connection's tasks (core/tasks/task-store.ts) and the same call path as a plain `tools/call`
 * (ToolCalls: the registry, its history record, cancellation that kills the process tree).
 *
 * - 2025-11-25 (experimental core tasks): capability `tasks: { list, cancel, requests.tools.call }`;
 *   each tool lists `execution.taskSupport`; a `tools/call` with `task` is answered at once with a
 *   `CreateTaskResult`; `tasks/get`, `tasks/result` (waits for the end, then the call's own result),
 *   `tasks/list`, `tasks/cancel`. A question inside a task makes it `input_required` and goes to
 *   the client as `elicitation/create` tied to the task (`related-task`); progress goes on as
 *   `notifications/progress` with the call's token.
 * - 2026-07-28 (the Tasks extension): capability `extensions["io.modelcontextprotocol/tasks"]`;
 *   the server decides: a client that declares the extension in a request gets a task for a tool
 *   whose `task.support` is `preferred` or `required` (`resultType: "task"`); `tasks/get` carries
 *   the result, error or question, `tasks/update` answers the question, `tasks/cancel`.
 *
 * Tasks answer `tools/call` in front of the SDK (FeatureContext.answerToolCallFirst): the SDK
 * checks a `tools/call` result against CallToolResult, which a task is not.
 */
import type { CallToolResult, ClientCapabilities, Result, Server, ServerContext } from '@modelcontextprotocol/server';
import { CLIENT_CAPABILITIES_META_KEY, MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { ToolRegistry } from '../../core/registry/tool-registry';
import { DEFAULT_MAX_ACTIVE_TASKS, DEFAULT_TASK_TTL_MS, MAX_TASK_TTL_MS, TaskLimitError, TaskStore, isTerminal } from '../../core/tasks/task-store';
import type { TaskStoreOptions } from '../../core/tasks/task-store';
import type { ElicitAnswer, Logger, TaskSupport } from '../../core/types';
import type { RunningCalls } from '../../core/running/running-calls';
import type { OutputStore } from '../../core/output/output-store';
import { cannotAskReason } from '../ask-client';
import type { CallToolParams } from '../request-params';
import { paramsSchema } from '../request-params';
import type { FeatureContext, ProtocolEra, ServerFeature } from '../server-feature';
import { SuspendedCalls } from '../suspended-calls';
import type { CallStep } from '../suspended-calls';
import type { CallRequest } from '../tool-calls';
import { ToolCalls, answerOf } from '../tool-calls';
import type { McpTask, TaskError } from './task-wire';
import { RELATED_TASK_KEY, TASKS_EXTENSION, legacyTask, modernDetailedTask, modernTask } from './task-wire';

export interface TasksFeatureOptions {
  readonly registry: ToolRegistry;
  readonly logger: Logger;
  readonly outputs?: OutputStore;
  /** Cancels every task when the server shuts down. */
  readonly shutdownSignal?: AbortSignal;
  /** The store's bounds (tests: a small cap, short TTLs). */
  readonly limits?: Partial<Omit<TaskStoreOptions, 'now'>>;
  /** Lists each task while it runs (the window's tools view, `--running-file`); its cancel is `tasks/cancel`'s. */
  readonly running?: RunningCalls;
}

/** Tasks listed per `tasks/list` page. */
const LIST_PAGE = 100;

const taskIdParams = paramsSchema<{ taskId: string }>({ taskId: { type: 'string', required: true } });
const listParams = paramsSchema<{ cursor?: string }>({ cursor: { type: 'string' } });
// `inputResponses` is lifted out of the params by the SDK (ctx.mcpReq.inputResponses), as a retried request's.
const updateParams = paramsSchema<{ taskId: string }>({ taskId: { type: 'string', required: true } });

/** The task support a tool declares; `optional` for one that says nothing (every built-in). */
export function taskSupportOf(registry: ToolRegistry, name: string): TaskSupport {
  return registry.get(name)?.definition.task?.support ?? 'optional';
}

export function tasksFeature(options: TasksFeatureOptions): ServerFeature {
  const { registry, logger } = options;
  const store = new TaskStore<CallToolResult, TaskError>({
    maxActive: options.limits?.maxActive ?? DEFAULT_MAX_ACTIVE_TASKS,
    defaultTtlMs: options.limits?.defaultTtlMs ?? DEFAULT_TASK_TTL_MS,
    maxTtlMs: options.limits?.maxTtlMs ?? MAX_TASK_TTL_MS,
  });
  // The tasks' own calls: a question inside a task waits here until its task's answer comes.
  const suspended = new SuspendedCalls();
  const calls = new ToolCalls({ registry, suspended, logger, ...(options.outputs === undefined ? {} : { outputs: options.outputs }) });
  options.shutdownSignal?.addEventListener(
    'abort',
    () => {
      store.dispose();
      suspended.dispose();
    },
    { once: true },
  );
  return {
    capabilities: {},
    capabilitiesFor: (era) => (era === 'legacy' ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } : { extensions: { [TASKS_EXTENSION]: {} } }),
    register: (context) => {
      context.answerToolCallFirst((params, ctx) => callAsTask({ registry, store, calls, logger, ...(options.running === undefined ? {} : { running: options.running }) }, context, params, ctx));
      if (context.era === 'legacy') {
        registerLegacy(context.server, store);
      } else {
        registerModern(context.server, store);
      }
      return undefined;
    },
  };
}

interface Running {
  readonly registry: ToolRegistry;
  readonly store: TaskStore<CallToolResult, TaskError>;
  readonly calls: ToolCalls;
  readonly logger: Logger;
  readonly running?: RunningCalls;
}

/**
 * A `tools/call` that runs as a task: the task at once (its work goes on in the background), a
 * protocol error when the tool's task support refuses the request, or undefined for a plain call.
 */
function callAsTask(running: Running, { server, era }: FeatureContext, params: CallToolParams, ctx: ServerContext): Promise<Result> | undefined {
  const support = taskSupportOf(running.registry, params.name);
  const requested = (params as { task?: unknown }).task;
  let asTask: boolean;
  let ttlMs: number | undefined;
  if (era === 'legacy') {
    asTask = typeof requested === 'object' && requested !== null;
    if (asTask && support === 'forbidden') {
      return Promise.reject(new ProtocolError(ProtocolErrorCode.MethodNotFound, `Tool ${params.name} does not run as a task (its task.support is "forbidden"); call it without "task".`));
    }
    if (!asTask && support === 'required') {
      return Promise.reject(new ProtocolError(ProtocolErrorCode.MethodNotFound, `Tool ${params.name} runs only as a task (its task.support is "required"); call it with "task": {}.`));
    }
    const ttl = asTask ? (requested as { ttl?: unknown }).ttl : undefined;
    ttlMs = typeof ttl === 'number' && Number.isFinite(ttl) ? ttl : undefined;
  } else {
    const declared = declaresTasks(ctx);
    if (!declared && support === 'required') {
      return Promise.reject(new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } }, `Tool ${params.name} runs only as a task: the client must declare the ${TASKS_EXTENSION} extension in its request's capabilities`));
    }
    asTask = declared && (support === 'preferred' || support === 'required');
  }
  if (!asTask) {
    return undefined;
  }
  let task: McpTask;
  try {
    task = running.store.create(params.name, ttlMs);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return Promise.reject(new ProtocolError(error instanceof TaskLimitError ? ProtocolErrorCode.InvalidRequest : ProtocolErrorCode.InternalError, `Tool ${params.name} was not started as a task: ${message}`));
  }
  void runTask(running, server, era, task.id, params, ctx);
  return Promise.resolve(era === 'legacy' ? { task: legacyTask(task) } : { resultType: 'task', ...modernTask(task) });
}

/** Whether this 2026-07-28 request's client declared the Tasks extension. */
function declaresTasks(ctx: ServerContext): boolean {
  const capabilities = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return typeof extensions === 'object' && extensions !== null && TASKS_EXTENSION in extensions;
}

/** Runs the task's call to its end: progress to its status message, questions through its status, the result kept. */
async function runTask(running: Running, server: Server, era: ProtocolEra, id: string, params: CallToolParams, ctx: ServerContext): Promise<void> {
  const { store, calls, logger } = running;
  const signal = store.signal(id);
  // 2025-11-25: the call's progress token stays good for the whole task.
  const progressToken = era === 'legacy' ? (ctx.mcpReq._meta?.progressToken) : undefined;
  const notify = calls.progressOf(progressToken, (notification) => server.notification({ method: 'notifications/progress', params: notification }));
  const listed = running.running?.begin({ id, tool: params.name, door: 'mcp-task', cancel: () => store.cancel(id, 'The task was cancelled in the editor.') });
  void store.settled(id).then(() => listed?.end());
  const progress = {
    report: (message: string) => {
      store.progress(id, message);
      listed?.report(message);
      notify?.report(message);
    },
    close: () => notify?.close(),
    settle: async () => notify?.settle(),
  };
  const cannotAsk = cannotAskReason(server, era, ctx.mcpReq.envelope);
  const request = { signal, progress, cannotAsk, asTask: true };
  try {
    let step: CallStep = await calls.start(params.name, params.arguments ?? {}, request);
    while (step.kind === 'asking') {
      // The call can end while its question waits (its time limit, a cancel): then so does the task.
      const asked = step;
      const reply = await Promise.race([askInTask(store, server, era, id, asked, signal).then((answer) => ({ answer })), asked.next.then((ended) => ({ ended }))]);
      step = 'ended' in reply ? reply.ended : await resumeOrNext(calls, asked, params.name, reply.answer, request);
    }
    progress.close();
    const result = answerOf(params.name, step.result);
    store.finish(id, { result: withRelatedTask(result, id, era), failed: era === 'legacy' && result.isError === true, ...(result.isError === true ? { statusMessage: firstLine(step.result.text) } : {}) });
  } catch (error) {
    progress.close();
    const code = error instanceof ProtocolError ? error.code : ProtocolErrorCode.InternalError;
    const message = error instanceof Error ? error.message : String(error);
    logger.debug(`[mcp] task ${id} (${params.name}) failed: ${message}`);
    store.finish(id, { error: { code, message, ...(error instanceof ProtocolError && error.data !== undefined ? { data: error.data } : {}) }, statusMessage: message });
  }
}

/**
 * The call's step after the answer; when the question was given up just before the answer came (a
 * step's time limit), the step the call went on to instead.
 */
function resumeOrNext(calls: ToolCalls, asked: CallStep & { kind: 'asking' }, name: string, answer: ElicitAnswer, request: CallRequest): Promise<CallStep> {
  try {
    return calls.resume(asked.token, name, answer, request);
  } catch (error) {
    if (!(error instanceof ProtocolError)) {
      throw error;
    }
    return asked.next;
  }
}

/**
 * The task's question, answered: on 2026-07-28 through `tasks/update` (the task shows it in
 * `tasks/get`); on 2025-11-25 by `elicitation/create` tied to the task. A cancelled task's
 * question is answered `cancel`.
 */
async function askInTask(store: TaskStore<CallToolResult, TaskError>, server: Server, era: ProtocolEra, id: string, step: CallStep & { kind: 'asking' }, signal: AbortSignal): Promise<ElicitAnswer> {
  const { answered, question } = store.ask(id, step.request);
  if (era === 'modern') {
    return answered;
  }
  try {
    const { message, requestedSchema } = step.request;
    const reply = await server.elicitInput({ mode: 'form', message, requestedSchema: requestedSchema as never, _meta: { [RELATED_TASK_KEY]: { taskId: id } } }, { signal });
    store.answer(id, question.key, reply);
    return { action: reply.action, ...(reply.content === undefined ? {} : { content: reply.content }) };
  } catch {
    store.answer(id, question.key, { action: 'cancel' });
    return { action: 'cancel' };
  }
}

/** 2025-11-25: the result of `tasks/result` names its task. */
function withRelatedTask(result: CallToolResult, id: string, era: ProtocolEra): CallToolResult {
  return era === 'legacy' ? { ...result, _meta: { ...result._meta, [RELATED_TASK_KEY]: { taskId: id } } } : result;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/** The task `taskId` names, or the -32602 MCP asks for when there is none (kept apart: expired). */
function found(store: TaskStore<CallToolResult, TaskError>, taskId: string, verb: string): McpTask {
  const task = store.get(taskId);
  if (task === undefined || task === 'expired') {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Failed to ${verb} task: ${task === 'expired' ? 'Task has expired (its results were dropped after its ttl)' : 'Task not found'}`);
  }
  return task;
}

function registerLegacy(server: Server, store: TaskStore<CallToolResult, TaskError>): void {
  server.setRequestHandler('tasks/get', { params: taskIdParams }, (params) => Promise.resolve(legacyTask(found(store, params.taskId, 'retrieve'))));
  server.setRequestHandler('tasks/result', { params: taskIdParams }, async (params) => {
    found(store, params.taskId, 'retrieve');
    const task = await store.settled(params.taskId);
    if (task.error !== undefined) {
      throw new ProtocolError(task.error.code, task.error.message, task.error.data);
    }
    if (task.result === undefined) {
      // Cancelled before its call answered: what a cancelled call gives.
      return { content: [{ type: 'text', text: task.statusMessage ?? 'The task was cancelled.' }], isError: true, _meta: { [RELATED_TASK_KEY]: { taskId: task.id } } };
    }
    return task.result;
  });
  server.setRequestHandler('tasks/list', { params: listParams }, (params) => {
    const tasks = store.list();
    const start = params.cursor === undefined ? 0 : Number.parseInt(params.cursor, 10);
    if (!Number.isSafeInteger(start) || start < 0 || String(start) !== (params.cursor ?? '0') || start > tasks.length) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor ${JSON.stringify(params.cursor)}; list again without a cursor`);
    }
    const page = tasks.slice(start, start + LIST_PAGE);
    const next = start + LIST_PAGE;
    return Promise.resolve({ tasks: page.map(legacyTask), ...(next < tasks.length ? { nextCursor: String(next) } : {}) });
  });
  server.setRequestHandler('tasks/cancel', { params: taskIdParams }, (params) => {
    const task = found(store, params.taskId, 'cancel');
    const cancelled = store.cancel(params.taskId);
    if (typeof cancelled !== 'object') {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Failed to cancel task: it is already ${task.status}`);
    }
    return Promise.resolve(legacyTask(cancelled));
  });
}

function registerModern(server: Server, store: TaskStore<CallToolResult, TaskError>): void {
  const declared = (ctx: ServerContext): void => {
    if (!declaresTasks(ctx)) {
      throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } }, `Missing required client capability: the ${TASKS_EXTENSION} extension`);
    }
  };
  server.setRequestHandler('tasks/get', { params: taskIdParams }, (params, ctx) => {
    declared(ctx);
    return Promise.resolve(modernDetailedTask(found(store, params.taskId, 'retrieve')));
  });
  server.setRequestHandler('tasks/update', { params: updateParams }, (params, ctx) => {
    declared(ctx);
    found(store, params.taskId, 'update');
    for (const [key, response] of Object.entries(ctx.mcpReq.inputResponses ?? {})) {
      store.answer(params.taskId, key, elicitAnswerOf(response));
    }
    return Promise.resolve({});
  });
  server.setRequestHandler('tasks/cancel', { params: taskIdParams }, (params, ctx) => {
    declared(ctx);
    const task = found(store, params.taskId, 'cancel');
    if (!isTerminal(task.status)) {
      store.cancel(params.taskId);
    }
    return Promise.resolve({});
  });
}

/** An `inputResponses` entry as the user's answer (an elicitation result); anything else cancels. */
function elicitAnswerOf(response: unknown): ElicitAnswer {
  const value = (typeof response === 'object' && response !== null ? response : {}) as { action?: unknown; content?: unknown };
  const action = value.action === 'accept' || value.action === 'decline' ? value.action : 'cancel';
  return { action, ...(action === 'accept' && typeof value.content === 'object' && value.content !== null ? { content: value.content as NonNullable<ElicitAnswer['content']> } : {}) };
}
