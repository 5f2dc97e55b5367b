/**
 * A task as each protocol revision writes it. 2025-11-25 (core, experimental): `Task` with `ttl`
 * and `pollInterval`, a `CreateTaskResult` that wraps it in `task`, and the result fetched apart
 * (`tasks/result`). 2026-07-28 (the Tasks extension `io.modelcontextprotocol/tasks`): `ttlMs` and
 * `pollIntervalMs`, the task inlined in the `tools/call` result (`resultType: "task"`), and
 * `tasks/get` carrying the result, the error or the open question itself (`DetailedTask`).
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { TaskSnapshot } from '../../core/tasks/task-store';
import type { TaskSupport } from '../../core/types';

/** The extension's identifier (2026-07-28). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The `_meta` key that ties a message to its task (2025-11-25). */
export const RELATED_TASK_KEY = 'io.modelcontextprotocol/related-task';

/** How often a client should poll a task; a build's output line changes faster than that. */
export const POLL_INTERVAL_MS = 1000;

/** A JSON-RPC error a task ended with (an unknown tool, say). */
export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export type McpTask = TaskSnapshot<CallToolResult, TaskError>;

/** 2025-11-25 `Task`. */
export function legacyTask(task: McpTask): Record<string, unknown> {
  return { ...taskFields(task), ttl: task.ttlMs, pollInterval: POLL_INTERVAL_MS };
}

/** 2026-07-28 `Task`, without what its status carries. */
export function modernTask(task: McpTask): Record<string, unknown> {
  return { ...taskFields(task), ttlMs: task.ttlMs, pollIntervalMs: POLL_INTERVAL_MS };
}

/** What both revisions' `Task` say alike; the TTL and the poll interval are named apart (`ttl`, `ttlMs`). */
function taskFields(task: McpTask): Record<string, unknown> {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
  };
}

/** 2026-07-28 `DetailedTask`: the task with its result, error or open question inlined. */
export function modernDetailedTask(task: McpTask): Record<string, unknown> {
  const base = modernTask(task);
  switch (task.status) {
    case 'completed':
      // The call's result as 2026-07-28 writes a CallToolResult: with its `resultType`.
      return { ...base, result: { ...(task.result ?? { content: [] }), resultType: 'complete' } };
    case 'failed':
      return { ...base, error: task.error ?? { code: -32603, message: task.statusMessage ?? 'The task failed.' } };
    case 'input_required':
      return task.question === undefined
        ? base
        : { ...base, inputRequests: { [task.question.key]: { method: 'elicitation/create', params: { mode: 'form', message: task.question.request.message, requestedSchema: task.question.request.requestedSchema } } } };
    default:
      return base;
  }
}

/** MCP's `execution.taskSupport` for a tool's own support (`preferred` is ours: optional, and the server's choice). */
export function mcpTaskSupport(support: TaskSupport): 'forbidden' | 'optional' | 'required' {
  return support === 'preferred' ? 'optional' : support;
}
