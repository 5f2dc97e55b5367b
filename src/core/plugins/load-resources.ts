/**
 * The `resources` section of one plugin file: each entry checked and compiled
 * (resources/build-resource.ts), a bad entry reported at its line:column and left out while its
 * siblings load, and a URI defined twice in the file reported naming both lines.
 */
import { buildResource } from '../resources/build-resource';
import type { PluginResource } from '../resources/plugin-resource';
import { resourceAddress } from '../resources/plugin-resource';
import type { PluginResourceSpec } from '../resources/resource-spec';
import type { WorkspaceFolder } from '../types';
import type { FileContext } from './file-context';
import type { SchemaProblem } from './schema-validation';

/** Takes a schema problem inside `resources[N]` into `problems` (by N); false for any other. */
export function setAsideResourceProblem(problem: SchemaProblem, problems: Map<number, SchemaProblem[]>): boolean {
  const [section, index] = problem.path;
  if (section !== 'resources' || typeof index !== 'number') {
    return false;
  }
  problems.set(index, [...(problems.get(index) ?? []), problem]);
  return true;
}

/** Builds the file's resources; reports every problem (schema problems given, by index). */
export function loadResources(
  context: FileContext,
  value: unknown,
  scope: { readonly folder: WorkspaceFolder; readonly pluginName: string },
  schemaProblems: ReadonlyMap<number, readonly SchemaProblem[]>,
): PluginResource[] {
  const raw = (value as { resources?: unknown } | null)?.resources;
  if (!Array.isArray(raw)) {
    return [];
  }
  const loaded: PluginResource[] = [];
  const firstLine = new Map<string, number>();
  raw.forEach((entry: unknown, index) => {
    const label = resourceLabel(entry, index);
    const problems = schemaProblems.get(index);
    if (problems !== undefined) {
      for (const problem of problems) {
        context.report(label, problem.path, problem.message, { ...(problem.key === undefined ? {} : { key: problem.key }), rule: problem.keyword });
      }
      return;
    }
    const { line, column } = context.position(['resources', index]);
    const built = buildResource(entry as PluginResourceSpec, { ...scope, place: { file: context.file, line, column } });
    if ('problems' in built) {
      for (const problem of built.problems) {
        context.report(label, ['resources', index, ...problem.path], problem.message, problem.span === undefined ? {} : { span: problem.span });
      }
      return;
    }
    const address = built.resource.content.kind === 'files' ? undefined : resourceAddress(built.resource);
    const earlier = address === undefined ? undefined : firstLine.get(address);
    if (earlier !== undefined) {
      context.report(label, ['resources', index], `duplicate resource URI "${address ?? ''}": first defined at line ${earlier}, again at line ${line}; the one at line ${line} is not served`);
      return;
    }
    if (address !== undefined) {
      firstLine.set(address, line);
    }
    loaded.push(built.resource);
  });
  return loaded;
}

/** How diagnostics name a resource: `resource NAME`, or `resources[N]` without a name. */
function resourceLabel(entry: unknown, index: number): string {
  const name = (entry as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name !== '' ? `resource ${name}` : `resources[${index}]`;
}
