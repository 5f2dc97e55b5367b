/**
 * The resources the plugin files serve, as one value per registry snapshot: who owns each URI
 * (the first file in load order, as with tool names; a later one is a problem naming both
 * places), what `resources/list` and `resources/templates/list` show, and which resource a URI
 * names. Only approved files serve: a file waiting for approval lists and reads nothing.
 */
import { walkFiles } from '../builtins/list-files';
import { hasGitSegment } from '../files/open-contained';
import type { PluginDiagnostic } from '../types';
import { mimeTypeOf } from './mime-types';
import type { PluginResource } from './plugin-resource';
import { describeResource, resourceAddress } from './plugin-resource';
import type { FoundResource } from './read-resource';
import { parseWorkspaceFileUri, workspaceFileUri } from './workspace-uri';

/** A plugin file as far as resources go (PluginFileStatus has this shape). */
export interface ResourceFile {
  readonly file: string;
  readonly approved: boolean;
  readonly loaded: { readonly resources?: readonly PluginResource[] };
}

/** A resource as `resources/list` shows it. */
export interface ListedResource {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType: string;
  /** Bytes, when known without reading (the kept outputs). */
  readonly size?: number;
}

/** A template as `resources/templates/list` shows it. */
export interface ListedTemplate {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

/** Files one `files` glob lists at most (the rest are still readable by URI). */
export const MAX_GLOB_RESOURCES = 1000;

/** The resources that own their address: the first of each URI or template in file order. */
function owners(files: readonly ResourceFile[]): { readonly owned: Map<PluginResource, ResourceFile>; readonly duplicates: Map<string, PluginDiagnostic[]> } {
  const claimed = new Map<string, PluginResource>();
  const owned = new Map<PluginResource, ResourceFile>();
  const duplicates = new Map<string, PluginDiagnostic[]>();
  for (const file of files) {
    for (const resource of file.loaded.resources ?? []) {
      // Globs list what is there at each request; the files they match are not claimed.
      const address = resource.content.kind === 'files' ? undefined : resourceAddress(resource);
      const first = address === undefined ? undefined : claimed.get(address);
      if (first !== undefined) {
        const { place } = first;
        const message = `duplicate resource URI "${address ?? ''}": already defined by ${place.file}:${place.line}:${place.column}; this one is not served (change its ${resource.template === undefined ? 'uri' : 'uriTemplate'})`;
        duplicates.set(file.file, [...(duplicates.get(file.file) ?? []), { file: file.file, line: resource.place.line, column: resource.place.column, message }]);
        continue;
      }
      if (address !== undefined) {
        claimed.set(address, resource);
      }
      owned.set(resource, file);
    }
  }
  return { owned, duplicates };
}

/** The problems of resources whose URI another resource defined first, by plugin file. */
export function duplicateResourceDiagnostics(files: readonly ResourceFile[]): ReadonlyMap<string, readonly PluginDiagnostic[]> {
  return owners(files).duplicates;
}

/** The resources served: of approved files, each owning its address. */
export function servedResources(files: readonly ResourceFile[]): PluginResource[] {
  return [...owners(files).owned].filter(([, file]) => file.approved).map(([resource]) => resource);
}

/** The resources that own their address but wait for their file's approval. */
export function waitingResources(files: readonly ResourceFile[]): PluginResource[] {
  return [...owners(files).owned].filter(([, file]) => !file.approved).map(([resource]) => resource);
}

/** `resources/list`: single resources, then each glob's files (at most MAX_GLOB_RESOURCES each). */
export async function listResources(served: readonly PluginResource[], signal: AbortSignal): Promise<ListedResource[]> {
  const listed: ListedResource[] = [];
  const seen = new Set<string>();
  const add = (entry: ListedResource): void => {
    if (!seen.has(entry.uri)) {
      seen.add(entry.uri);
      listed.push(entry);
    }
  };
  for (const resource of served) {
    if (resource.uri !== undefined) {
      const guessed = resource.content.kind === 'file' ? mimeTypeOf(resource.content.path) : 'text/plain';
      add({ uri: resource.uri, name: resource.name, ...words(resource), mimeType: resource.mimeType ?? guessed });
    }
  }
  for (const resource of served) {
    const { content } = resource;
    if (content.kind === 'files') {
      // The walk skips .git directories; a .git file (a submodule's or a worktree's pointer) is left out here.
      const listing = await walkFiles(resource.folder, content.glob, MAX_GLOB_RESOURCES, { signal }, (file) => !hasGitSegment(file));
      for (const file of listing.files) {
        add({ uri: workspaceFileUri(resource.folder, file), name: file, ...words(resource), mimeType: resource.mimeType ?? mimeTypeOf(file) });
      }
    }
  }
  return listed;
}

/** `resources/templates/list`. */
export function listTemplates(served: readonly PluginResource[]): ListedTemplate[] {
  return served.flatMap((resource) =>
    resource.template === undefined
      ? []
      : [{ uriTemplate: resource.template.text, name: resource.name, ...words(resource), ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }) }],
  );
}

/**
 * The resource `uri` names: a single resource's URI, else a template it matches, else a file of a
 * glob (by its workspace file URI); undefined when none.
 */
export function findResource(served: readonly PluginResource[], uri: string): FoundResource | undefined {
  const single = served.find((resource) => resource.uri === uri);
  if (single !== undefined) {
    return { resource: single, uri };
  }
  for (const resource of served) {
    const values = resource.template?.match(uri);
    if (values !== undefined) {
      return { resource, uri, values };
    }
  }
  const file = parseWorkspaceFileUri(uri);
  if (file !== undefined) {
    const resource = served.find((one) => one.content.kind === 'files' && one.folder.name === file.folderName && one.content.matcher.matches(file.relativePath));
    if (resource !== undefined) {
      return { resource, uri, path: file.relativePath };
    }
  }
  return undefined;
}

/** Equal for two lists of served resources that a client would see the same (list_changed). */
export function resourceListKey(served: readonly PluginResource[]): string {
  return JSON.stringify(served.map((resource) => [resourceAddress(resource), resource.name, resource.title, resource.description, resource.mimeType, resource.content.kind === 'files' ? resource.content.glob : '']));
}

function words(resource: PluginResource): { title?: string; description?: string } {
  return {
    ...(resource.title === undefined ? {} : { title: resource.title }),
    ...(resource.description === undefined ? {} : { description: resource.description }),
  };
}

/** A plugin resource as listings outside the protocol show it (`list`, the tools view). */
export interface ResourceInfo {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** The URI, or the URI template, or for a glob its files' URIs with the glob in place of the path. */
  readonly address: string;
  readonly mimeType?: string;
  /** What it reads or runs: "file docs/a.md", "files docs/*.md", "command git log". */
  readonly reads: string;
  /** served; waiting for its file's approval; or not served because another defined its URI first. */
  readonly state: 'served' | 'pending-approval' | 'duplicate';
  readonly source: { readonly file: string; readonly line: number; readonly column: number };
}

/** Every plugin resource of `files`, in file order, with its state. */
export function resourceInventory(files: readonly ResourceFile[]): ResourceInfo[] {
  const { owned } = owners(files);
  return files.flatMap((file) =>
    (file.loaded.resources ?? []).map((resource): ResourceInfo => ({
      name: resource.name,
      ...words(resource),
      address: resource.content.kind === 'files' ? `${workspaceFileUri(resource.folder, '')}${resource.content.glob}` : resourceAddress(resource),
      ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }),
      reads: describeResource(resource),
      state: !owned.has(resource) ? 'duplicate' : file.approved ? 'served' : 'pending-approval',
      source: resource.place,
    })),
  );
}
