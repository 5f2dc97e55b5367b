/**
 * The problems a call result reports (`structured.problems`: an imported task's problem matcher,
 * plugins/imported-tools.ts), checked and grouped by file for VS Code's Problems panel. No
 * `vscode` here: the shape a result may have is tested in plain Node.
 */
import type { MatchedProblem } from '../../core/imports';

/** The problems of a result, by absolute file; undefined when the result reports none (no matcher ran). */
export function problemsByFile(structured: Readonly<Record<string, unknown>> | undefined): Map<string, MatchedProblem[]> | undefined {
  const problems = structured?.['problems'];
  if (!Array.isArray(problems)) {
    return undefined;
  }
  const byFile = new Map<string, MatchedProblem[]>();
  for (const problem of problems.filter(isProblem)) {
    byFile.set(problem.file, [...(byFile.get(problem.file) ?? []), problem]);
  }
  return byFile;
}

function isProblem(value: unknown): value is MatchedProblem {
  const problem = value as Partial<MatchedProblem> | null;
  return (
    typeof problem === 'object' && problem !== null &&
    typeof problem.file === 'string' && problem.file !== '' &&
    Number.isInteger(problem.line) && (problem.line ?? 0) >= 1 &&
    typeof problem.message === 'string' &&
    (problem.severity === 'error' || problem.severity === 'warning' || problem.severity === 'info')
  );
}
