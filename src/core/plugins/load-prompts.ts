/**
 * The `prompts` section of one plugin file: each prompt compiled (core/prompts), its schema and
 * compile problems reported at their line:column, a bad prompt left out while its siblings (and
 * the file's tools) load. Duplicate names within the file: the first wins, the later is reported
 * naming both lines; across files, the registry snapshot does the same.
 */
import type { PromptDefinition, PromptSpec } from '../prompts';
import { compilePrompt } from '../prompts';
import type { WorkspaceFolder } from '../types';
import type { FileContext } from './file-context';
import type { SchemaProblem } from './schema-validation';

/** Takes a schema problem inside `prompts[N]` into `problems`; false for any other. */
export function setAsidePromptProblem(problem: SchemaProblem, problems: SchemaProblem[]): boolean {
  if (promptIndexOf(problem) === undefined) {
    return false;
  }
  problems.push(problem);
  return true;
}

function promptIndexOf(problem: SchemaProblem): number | undefined {
  const [first, second] = problem.path;
  return first === 'prompts' && typeof second === 'number' ? second : undefined;
}

/** Loads the file's prompts; `schemaProblems` are the validator's problems inside `prompts[N]`. */
export function loadPrompts(
  context: FileContext,
  value: unknown,
  scope: { readonly folder: WorkspaceFolder; readonly pluginName: string },
  schemaProblems: readonly SchemaProblem[],
): PromptDefinition[] {
  const raw = promptList(value);
  const bad = new Set<number>();
  for (const problem of schemaProblems) {
    const index = promptIndexOf(problem);
    if (index !== undefined) {
      bad.add(index);
      context.reportPrompt(promptLabel(raw[index], index), problem.path, problem.message, { ...(problem.key === undefined ? {} : { key: problem.key }), rule: problem.keyword });
    }
  }
  const first = new Map<string, number>();
  const loaded: PromptDefinition[] = [];
  raw.forEach((entry, index) => {
    if (bad.has(index)) {
      return;
    }
    const spec = entry as PromptSpec;
    const label = promptLabel(entry, index);
    const earlier = first.get(spec.name);
    if (earlier !== undefined) {
      const firstLine = context.position(['prompts', earlier, 'name']).line;
      const line = context.position(['prompts', index, 'name']).line;
      context.reportPrompt(label, ['prompts', index, 'name'], `duplicate prompt name "${spec.name}": first defined at line ${firstLine}, again at line ${line}; the one at line ${line} is ignored`);
      return;
    }
    first.set(spec.name, index);
    const { line, column } = context.position(['prompts', index]);
    const compiled = compilePrompt(spec, scope.folder, { pluginName: scope.pluginName, file: context.file, line, column });
    if ('problems' in compiled) {
      for (const problem of compiled.problems) {
        context.reportPrompt(label, ['prompts', index, ...problem.path], problem.message, problem.span === undefined ? {} : { span: problem.span });
      }
      return;
    }
    loaded.push(compiled.prompt);
  });
  return loaded;
}

function promptList(value: unknown): readonly unknown[] {
  const prompts = (value as { prompts?: unknown } | null)?.prompts;
  return Array.isArray(prompts) ? prompts : [];
}

/** How diagnostics name a prompt: its name, else `prompts[N]`. */
function promptLabel(prompt: unknown, index: number): string {
  const name = (prompt as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name !== '' ? name : `prompts[${index}]`;
}
