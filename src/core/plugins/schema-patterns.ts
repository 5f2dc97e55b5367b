/**
 * The regular expressions of a tool's input schema (`pattern`, `patternProperties`), checked when
 * the file loads: they run in a linear-time engine at call time (json-schema/linear-regexp.ts),
 * which has no lookaround or backreferences, so a pattern it cannot run is a load problem of the
 * tool, shown at its line, not a failed call later.
 */
import { linearPatternProblem } from '../json-schema/linear-regexp';
import type { JsonPath } from './locate';

/** Keywords whose values are data, not schemas: a "pattern" key inside them is not a keyword. */
const DATA_KEYWORDS = new Set(['default', 'enum', 'const', 'examples']);

/** Problems of the patterns in `schema`, with paths relative to it. */
export function schemaPatternProblems(schema: unknown): { path: JsonPath; message: string }[] {
  const problems: { path: JsonPath; message: string }[] = [];
  const stack: { value: unknown; path: JsonPath }[] = [{ value: schema, path: [] }];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const { value, path } = entry;
    if (value === null || typeof value !== 'object') {
      continue;
    }
    if (Array.isArray(value)) {
      value.forEach((item, index) => stack.push({ value: item, path: [...path, index] }));
      continue;
    }
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (key === 'pattern' && typeof item === 'string') {
        const problem = linearPatternProblem(item);
        if (problem !== undefined) {
          problems.push({ path: [...path, key], message: problem });
        }
      } else if (key === 'patternProperties' && item !== null && typeof item === 'object') {
        for (const pattern of Object.keys(item)) {
          const problem = linearPatternProblem(pattern);
          if (problem !== undefined) {
            problems.push({ path: [...path, key, pattern], message: problem });
          }
        }
      }
      if (!DATA_KEYWORDS.has(key)) {
        stack.push({ value: item, path: [...path, key] });
      }
    }
  }
  return problems;
}
