/**
 * `.vscode/tasks.json` read as VS Code reads it (JSONC: comments, trailing commas), into tasks
 * with their platform block merged over them, the file's own `options` and platform block under
 * them, and where each task is (1-based line:column of its object).
 */
import { getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { Platform } from '../platform/platform';
import { overrideKeyOf } from '../platform/platform';
import { LineIndex } from '../plugins/locate';

/** One task as declared, platform block merged, with where it is. */
export interface DeclaredTask {
  readonly value: Readonly<Record<string, unknown>>;
  readonly line: number;
  readonly column: number;
}

/** The file: its tasks, its inputs by id, or why it cannot be read at all. */
export type TasksFile =
  | { readonly ok: true; readonly tasks: readonly DeclaredTask[]; readonly inputs: ReadonlyMap<string, Readonly<Record<string, unknown>>> }
  | { readonly ok: false; readonly reason: string; readonly line: number; readonly column: number };

type JsonObject = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses the text of tasks.json for `platform`. */
export function parseTasksFile(text: string, platform: Platform): TasksFile {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const lines = new LineIndex(text);
  const first = errors[0];
  if (first !== undefined || root === undefined) {
    const at = lines.position(first?.offset ?? 0);
    return { ok: false, reason: `tasks.json is not valid JSON: ${first === undefined ? 'it is empty' : printParseErrorCode(first.error)}`, ...at };
  }
  const value: unknown = getNodeValue(root);
  if (!isObject(value)) {
    return { ok: false, reason: 'tasks.json is not a JSON object', line: 1, column: 1 };
  }
  const key = overrideKeyOf(platform);
  const fileLevel = mergeTask({ options: value['options'] }, key === undefined ? undefined : value[key]);
  const tasksNode = childOf(root, 'tasks');
  const tasks = (tasksNode?.children ?? []).map((node): DeclaredTask => {
    const task = getNodeValue(node) as unknown;
    const merged = isObject(task) ? mergeTask(task, key === undefined ? undefined : task[key]) : {};
    const options = mergeOptions(fileLevel['options'], merged['options']);
    return { value: { ...merged, ...(options === undefined ? {} : { options }) }, ...lines.position(node.offset) };
  });
  const inputs = new Map<string, JsonObject>();
  const declaredInputs = value['inputs'];
  for (const input of Array.isArray(declaredInputs) ? (declaredInputs as unknown[]) : []) {
    if (isObject(input) && typeof input['id'] === 'string') {
      inputs.set(input['id'], input);
    }
  }
  return { ok: true, tasks, inputs };
}

function childOf(node: Node, key: string): Node | undefined {
  const property = node.children?.find((child) => child.children?.[0]?.value === key);
  return property?.children?.[1];
}

/** A platform block over a task: its properties replace the task's, `options` merged (env by name). */
function mergeTask(task: JsonObject, override: unknown): JsonObject {
  if (!isObject(override)) {
    return task;
  }
  const options = mergeOptions(task['options'], override['options']);
  return { ...task, ...override, ...(options === undefined ? {} : { options }) };
}

function mergeOptions(base: unknown, over: unknown): JsonObject | undefined {
  if (!isObject(over)) {
    return isObject(base) ? base : undefined;
  }
  if (!isObject(base)) {
    return over;
  }
  const env = isObject(base['env']) || isObject(over['env']) ? { ...(isObject(base['env']) ? base['env'] : {}), ...(isObject(over['env']) ? over['env'] : {}) } : undefined;
  return { ...base, ...over, ...(env === undefined ? {} : { env }) };
}
