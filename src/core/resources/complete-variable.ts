/**
 * Completing a variable of a served resource template (`completion/complete` with `ref/resource`):
 * the template found by its URI template text, the variable's enum or `complete` source run by
 * the one completion engine (core/completions), in the folder of the template's plugin file.
 */
import type { Completion, CompletionContext } from '../completions';
import { complete } from '../completions';
import type { WorkspaceFolder } from '../types';
import type { PluginResource } from './plugin-resource';
import type { ResourceVariableSpec } from './resource-spec';

/** A template or variable that no served resource has: the client asked about something else. */
export class UnknownTemplateVariableError extends Error {
  override readonly name = 'UnknownTemplateVariableError';
}

/** The variable `variable` of the served template `uriTemplate`: how it completes, and where. */
export function templateVariable(served: readonly PluginResource[], uriTemplate: string, variable: string): { readonly source: ResourceVariableSpec; readonly folder: WorkspaceFolder } | undefined {
  const resource = served.find((one) => one.template?.text === uriTemplate);
  if (resource?.template?.variables.includes(variable) !== true) {
    return undefined;
  }
  return { source: resource.variables[variable] ?? {}, folder: resource.folder };
}

/** The values that complete `variable` of `uriTemplate`, given what was typed (`prefix`). */
export function completeTemplateVariable(
  served: readonly PluginResource[],
  request: { readonly uriTemplate: string; readonly variable: string; readonly prefix: string },
  context: Omit<CompletionContext, 'folder'>,
): Promise<Completion> {
  const found = templateVariable(served, request.uriTemplate, request.variable);
  if (found === undefined) {
    const templates = served.flatMap((one) => (one.template === undefined ? [] : [one.template.text]));
    const known = templates.includes(request.uriTemplate);
    throw new UnknownTemplateVariableError(
      known
        ? `Resource template ${request.uriTemplate} has no variable "${request.variable}".`
        : `Unknown resource template: ${request.uriTemplate}. Served templates: ${templates.join(', ') || '(none)'}.`,
    );
  }
  return complete(found.source, request.prefix, { ...context, folder: found.folder });
}
