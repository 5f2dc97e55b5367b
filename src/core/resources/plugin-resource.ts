/**
 * A plugin file's resource as loading leaves it: checked and compiled once (its URI or template
 * parsed, its path, glob or argv compiled), with where it was defined.
 */
import type { GlobMatcher } from '../builtins/glob';
import type { ArgvToken } from '../handlers/shell/expand';
import type { TemplatePart } from '../templates';
import type { WorkspaceFolder } from '../types';
import type { ResourceVariableSpec } from './resource-spec';
import type { UriTemplate } from './uri-template';

/** Where a resource's contents come from. */
export type ResourceContent =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'file-template'; readonly path: string; readonly parts: readonly TemplatePart[] }
  | { readonly kind: 'files'; readonly glob: string; readonly matcher: GlobMatcher }
  | { readonly kind: 'command'; readonly command: readonly string[]; readonly argv: readonly ArgvToken[] };

/** Where a resource was defined: its plugin file and the line:column of its entry. */
export interface ResourcePlace {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export interface PluginResource {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** The entry's `mimeType`; absent: guessed from each file name (text/plain for a command). */
  readonly mimeType?: string;
  /** A single resource's URI (a file or a command; explicit or the default); absent for globs and templates. */
  readonly uri?: string;
  readonly template?: UriTemplate;
  readonly variables: Readonly<Record<string, ResourceVariableSpec>>;
  readonly content: ResourceContent;
  readonly folder: WorkspaceFolder;
  readonly pluginName: string;
  readonly place: ResourcePlace;
  /** Largest content served, in bytes. */
  readonly maxSize: number;
  /** Command resources: the entry's timeout; absent: the server's limit. */
  readonly timeoutMs?: number;
  /** What it reads or runs, for the approval dialog. */
  readonly approvalLines: readonly string[];
}

/** The kind of resource, in words (the CLI's `list`, the tools view). */
export function describeResource(resource: PluginResource): string {
  const { content } = resource;
  switch (content.kind) {
    case 'file':
      return `file ${content.path}`;
    case 'file-template':
      return `file ${content.path}`;
    case 'files':
      return `files ${content.glob}`;
    case 'command':
      return `command ${content.command.join(' ')}`;
  }
}

/** The URI or URI template a resource is listed under. */
export function resourceAddress(resource: PluginResource): string {
  return resource.uri ?? resource.template?.text ?? resource.content.kind;
}
