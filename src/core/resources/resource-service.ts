/**
 * Everything a door serves about resources, without the protocol: the plugin files' resources
 * beside the kept large outputs (workspace-tools://output/<id>), reading by URI, subscriptions
 * (a subscribed file is watched with files/watch-paths, by real path inside its folder only; its
 * change, or a reload that changed the resource behind a subscribed URI, is an update), and when
 * the list a client saw changed.
 * The MCP door (src/mcp/serve-resources.ts) only maps these to requests and notifications.
 */
import * as path from 'node:path';
import { watchForChanges } from '../files/watch-paths';
import type { OutputStore } from '../output/output-store';
import { OUTPUT_URI_PREFIX, UnknownOutputError } from '../output/output-store';
import type { Disposable, ExecutionLimits, Logger } from '../types';
import type { PluginResource } from './plugin-resource';
import type { ResourceVariableSpec } from './resource-spec';
import { templateVariable } from './complete-variable';
import type { ListedResource, ListedTemplate, ResourceFile } from './resource-catalog';
import { findResource, listResources, listTemplates, resourceListKey, servedResources, waitingResources } from './resource-catalog';
import type { FoundResource, ResourceContents } from './read-resource';
import { filePathOf, readResource } from './read-resource';

/** A URI that names no resource served now (MCP: resource not found). */
export class UnknownResourceError extends Error {
  override readonly name = 'UnknownResourceError';
}

/** Where the plugin files come from (the tool registry has this shape). */
export interface ResourceSource {
  files(): readonly ResourceFile[];
  initialize(): Promise<void>;
  onDidChange(listener: () => void): Disposable;
}

export interface ResourceServiceOptions {
  readonly source: ResourceSource;
  /** The kept large outputs, listed after the plugin resources. */
  readonly outputs?: OutputStore;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly limits: () => ExecutionLimits;
  readonly logger: Logger;
  /** A subscribed URI's contents may have changed. */
  readonly onUpdated: (uri: string) => void;
  /** What `list` and `templates` return changed (never for the first load). */
  readonly onListChanged: () => void;
  /** Quiet time after a file event before the update is sent (editors save in bursts). */
  readonly debounceMs?: number;
}

interface Subscription {
  /** The resource behind the URI when last looked at (a reload that changes it is an update). */
  resource: PluginResource | undefined;
  target: string | undefined;
  watcher: Disposable | undefined;
}

const DEFAULT_DEBOUNCE_MS = 100;
/** Most URIs one client may subscribe to at once: each file subscription holds a watcher. */
export const MAX_SUBSCRIPTIONS = 256;

export class ResourceService {
  private readonly subscriptions = new Map<string, Subscription>();
  private listKey: string | undefined;
  private readonly subscription: Disposable;

  constructor(private readonly options: ResourceServiceOptions) {
    void options.source.initialize().then(() => {
      this.listKey = resourceListKey(this.served());
    });
    this.subscription = options.source.onDidChange(() => this.reloaded());
  }

  /** `resources/list`: the plugin resources, then the kept outputs (newest first). */
  async list(signal: AbortSignal): Promise<ListedResource[]> {
    await this.options.source.initialize();
    const plugin = await listResources(this.served(), signal);
    return [...plugin, ...(this.options.outputs?.list() ?? [])];
  }

  /** `resources/templates/list`. */
  async templates(): Promise<ListedTemplate[]> {
    await this.options.source.initialize();
    return listTemplates(this.served());
  }

  /** `resources/read`; throws UnknownResourceError, ResourceInputError or ResourceReadError. */
  async read(uri: string, signal: AbortSignal): Promise<ResourceContents> {
    if (uri.startsWith(OUTPUT_URI_PREFIX) && this.options.outputs !== undefined) {
      try {
        const { text, resource } = await this.options.outputs.read(uri);
        return { uri: resource.uri, mimeType: resource.mimeType, text };
      } catch (error) {
        throw error instanceof UnknownOutputError ? new UnknownResourceError(error.message) : error;
      }
    }
    await this.options.source.initialize();
    return readResource(this.find(uri), { env: this.options.env, limits: this.options.limits(), signal });
  }

  /** `resources/subscribe`: updates for `uri` until unsubscribed; throws UnknownResourceError. */
  async subscribe(uri: string): Promise<void> {
    // First: the checks below must see every subscription made meanwhile (requests of one client
    // run concurrently, and a listen stream subscribes to all its URIs at once).
    await this.options.source.initialize();
    if (this.subscriptions.has(uri)) {
      return;
    }
    if (this.subscriptions.size >= MAX_SUBSCRIPTIONS) {
      throw new Error(`Too many subscriptions: at most ${MAX_SUBSCRIPTIONS} resources at once; unsubscribe from some first.`);
    }
    if (uri.startsWith(OUTPUT_URI_PREFIX)) {
      // A kept output never changes: nothing to send, but it is a resource one may subscribe to.
      if (!(this.options.outputs?.list() ?? []).some((output) => output.uri === uri)) {
        throw new UnknownResourceError(`Unknown resource ${uri}: it is not one of the outputs this server keeps.`);
      }
      this.subscriptions.set(uri, { resource: undefined, target: undefined, watcher: undefined });
      return;
    }
    const found = this.find(uri);
    const subscription: Subscription = { resource: found.resource, target: undefined, watcher: undefined };
    this.subscriptions.set(uri, subscription);
    this.watch(uri, subscription, found);
  }

  /**
   * Where the values of a template's variable come from, for completion (completion/complete):
   * its `enum` and its `complete` source, as the plugin file declares them; undefined for a
   * template or variable not served. The hook a completion engine reads.
   */
  variableCompletion(uriTemplate: string, variable: string): ResourceVariableSpec | undefined {
    return templateVariable(this.served(), uriTemplate, variable)?.source;
  }

  /** `resources/unsubscribe`: no more updates for `uri` (a URI not subscribed is no error). */
  unsubscribe(uri: string): void {
    this.subscriptions.get(uri)?.watcher?.dispose();
    this.subscriptions.delete(uri);
  }

  dispose(): void {
    this.subscription.dispose();
    for (const uri of [...this.subscriptions.keys()]) {
      this.unsubscribe(uri);
    }
  }

  private served(): PluginResource[] {
    return servedResources(this.options.source.files());
  }

  private find(uri: string): FoundResource {
    const found = findResource(this.served(), uri);
    if (found === undefined) {
      const waiting = findResource(waitingResources(this.options.source.files()), uri)?.resource.place.file;
      const why = waiting === undefined ? 'no approved plugin file serves it (resources/list and resources/templates/list show what is served)' : `it is defined in ${waiting}, which waits for approval`;
      throw new UnknownResourceError(`Unknown resource ${uri}: ${why}.`);
    }
    return found;
  }

  /** Watches the file behind a subscribed URI (none for a command's output). */
  private watch(uri: string, subscription: Subscription, found: FoundResource | undefined): void {
    const target = found === undefined ? undefined : watchTarget(found);
    if (target === subscription.target) {
      return;
    }
    subscription.watcher?.dispose();
    subscription.target = target;
    const folder = found?.resource.folder.path;
    subscription.watcher =
      target === undefined || folder === undefined
        ? undefined
        : watchForChanges({
            targets: [target],
            // By real path inside the folder only: a link out is never followed, so a change to an
            // outside file is never announced.
            within: folder,
            debounceMs: this.options.debounceMs ?? DEFAULT_DEBOUNCE_MS,
            logger: this.options.logger,
            onChange: () => this.options.onUpdated(uri),
          });
  }

  /** After a reload: a subscribed URI whose resource changed (or went) is updated; the list may have changed. */
  private reloaded(): void {
    const served = this.served();
    for (const [uri, subscription] of this.subscriptions) {
      if (uri.startsWith(OUTPUT_URI_PREFIX)) {
        continue;
      }
      const found = findResource(served, uri);
      if (found?.resource !== subscription.resource) {
        subscription.resource = found?.resource;
        this.watch(uri, subscription, found);
        this.options.onUpdated(uri);
      }
    }
    if (this.listKey === undefined) {
      return;
    }
    const key = resourceListKey(served);
    if (key !== this.listKey) {
      this.listKey = key;
      this.options.onListChanged();
    }
  }
}

/** The file a found resource reads, or undefined for a command (or a value refused at read). */
function watchTarget(found: FoundResource): string | undefined {
  try {
    const relative = filePathOf(found);
    return relative === undefined ? undefined : path.resolve(found.resource.folder.path, relative);
  } catch {
    return undefined;
  }
}
