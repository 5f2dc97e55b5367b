/**
 * The problems a tool would have once its schema problems are fixed, found now: a tool whose
 * only schema problems are misspelt or unknown properties (or a missing description, or a bad
 * test) is built anyway, with each misspelt key read as the name it most likely meant, so a
 * newcomer sees the shell operator and the undeclared placeholder in the same pass as the typo
 * instead of one stage at a time. The tool still does not load; only its problems are kept.
 */
import type { HandlerProblem } from '../handlers/handler';
import type { JsonPath } from './locate';
import type { SchemaProblem } from './schema-validation';
import { validatePluginFile } from './schema-validation';

/** A tool's value read the way its author most likely meant it, and how its paths map back. */
export interface RepairedTool {
  readonly spec: unknown;
  /** A path in `spec` (relative to the tool) as written in the file (misspelt keys restored). */
  readonly originalPath: (path: readonly (string | number)[]) => JsonPath;
}

/** Schema problems a tool can have and still be built to find its other problems. */
function harmless(problem: SchemaProblem): boolean {
  const [first] = problem.path;
  if (first === 'description' || first === 'title' || first === 'tests') {
    return true;
  }
  return problem.path.length === 0 && problem.keyword === 'required' && (problem.missing ?? []).every((name) => name === 'description');
}

/**
 * The tool at `tools[index]` with its unknown keys renamed to their suggestion (or left out when
 * there is none, or the suggested key is there already), when that leaves only harmless schema
 * problems; undefined when building it could only add noise (a wrong type, a missing handler).
 * `problems` are the tool's schema problems, with paths relative to the tool.
 */
export function repairForDiagnosis(tool: unknown, problems: readonly SchemaProblem[]): RepairedTool | undefined {
  if (problems.some((problem) => problem.keyword !== 'additionalProperties' && !harmless(problem))) {
    return undefined;
  }
  const renames = new Map<string, string>();
  if (!problems.some((problem) => problem.keyword === 'additionalProperties')) {
    // Nothing to rename, and every problem is harmless (above): validating again would say the same.
    return { spec: tool, originalPath: (path) => restore(path, renames) };
  }
  let spec = tool;
  for (const problem of problems) {
    if (problem.keyword === 'additionalProperties' && problem.key !== undefined) {
      const renamed = renameKey(spec, problem.path, problem.key, problem.suggestion);
      spec = renamed.value;
      if (renamed.to !== undefined) {
        renames.set(pathKey([...problem.path, renamed.to]), problem.key);
      }
    }
  }
  const remaining = validatePluginFile({ tools: [spec] }).map((problem) => ({ ...problem, path: problem.path.slice(2) }));
  if (!remaining.every(harmless)) {
    return undefined;
  }
  return { spec, originalPath: (path) => restore(path, renames) };
}

/** Built-tool problems mapped back to the file's keys. */
export function restoreProblems(problems: readonly HandlerProblem[], repaired: RepairedTool): HandlerProblem[] {
  return problems.map((problem) => ({ ...problem, path: repaired.originalPath(problem.path) }));
}

function pathKey(path: readonly (string | number)[]): string {
  return JSON.stringify(path);
}

function restore(path: readonly (string | number)[], renames: ReadonlyMap<string, string>): JsonPath {
  const restored: (string | number)[] = [];
  path.forEach((segment, index) => {
    const original = renames.get(pathKey([...path.slice(0, index), segment]));
    restored.push(original ?? segment);
  });
  return restored;
}

type Json = Record<string, unknown>;

/** A copy of `root` where the object at `path` has `key` renamed to `to` (or removed). */
function renameKey(root: unknown, path: readonly (string | number)[], key: string, to: string | undefined): { value: unknown; to?: string } {
  if (path.length === 0) {
    if (typeof root !== 'object' || root === null || Array.isArray(root)) {
      return { value: root };
    }
    const object = root as Json;
    const target = to !== undefined && !(to in object) ? to : undefined;
    // fromEntries defines own properties: a key named "__proto__" stays a key.
    const copy = Object.fromEntries(
      Object.entries(object).flatMap(([name, value]): [string, unknown][] => (name !== key ? [[name, value]] : target === undefined ? [] : [[target, value]])),
    );
    return target === undefined ? { value: copy } : { value: copy, to: target };
  }
  const [head, ...rest] = path;
  if (Array.isArray(root) && typeof head === 'number') {
    const items = root as unknown[];
    const inner = renameKey(items[head], rest, key, to);
    return { ...inner, value: items.map((item, index) => (index === head ? inner.value : item)) };
  }
  if (typeof root === 'object' && root !== null && typeof head === 'string') {
    const inner = renameKey((root as Json)[head], rest, key, to);
    return { ...inner, value: { ...(root as Json), [head]: inner.value } };
  }
  return { value: root };
}
