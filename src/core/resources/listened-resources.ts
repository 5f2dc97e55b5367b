/**
 * Which resource URIs the open listen streams of one connection name (2026-07-28
 * `subscriptions/listen`, `resourceSubscriptions`), and keeping a ResourceService subscribed to
 * exactly those. Two streams may name the same URI: it stays subscribed until the last of them
 * ends. The protocol (which message opens or ends a stream) is the MCP door's
 * (src/mcp/listen-streams.ts); this is only the bookkeeping.
 */
import type { Disposable, Logger } from '../types';
import { UnknownResourceError } from './resource-service';

/** A listen stream's id: the JSON-RPC id of the request that opened it. */
export type StreamId = string | number;

/** URIs that became listened to (named by a first stream) or stopped being (their last stream ended). */
export interface ListenedChange {
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

export class ListenedResources {
  private readonly streams = new Map<StreamId, readonly string[]>();
  /** How many open streams name each URI. */
  private readonly counts = new Map<string, number>();
  // A plain set, not core/registry's Emitter: resources sit below the registry's floor.
  private readonly listeners = new Set<(change: ListenedChange) => void | Promise<void>>();

  /** `listener` may return a promise: `open` resolves once every listener's has (see `open`). */
  onDidChange(listener: (change: ListenedChange) => void | Promise<void>): Disposable {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  /**
   * A stream `id` opened, naming `uris` (a second open of the same id replaces the first).
   * Resolves when the listeners have acted on it (the URIs are watched), so the door can hold the
   * stream's acknowledgement until then: a change the client makes right after it is reported.
   */
  open(id: StreamId, uris: readonly string[]): Promise<void> {
    const removed = this.release(id);
    const unique = [...new Set(uris)];
    this.streams.set(id, unique);
    const added: string[] = [];
    for (const uri of unique) {
      const count = this.counts.get(uri) ?? 0;
      this.counts.set(uri, count + 1);
      if (count === 0) {
        added.push(uri);
      }
    }
    return this.announce(
      added.filter((uri) => !removed.includes(uri)),
      removed.filter((uri) => !unique.includes(uri)),
    );
  }

  /** The stream `id` ended (an id never opened, or already closed, is no error). */
  close(id: StreamId): void {
    void this.announce([], this.release(id));
  }

  /** Every stream ended (the connection closed). */
  clear(): void {
    for (const id of [...this.streams.keys()]) {
      this.close(id);
    }
  }

  has(id: StreamId): boolean {
    return this.streams.has(id);
  }

  /** Whether some open stream names `uri`. */
  names(uri: string): boolean {
    return this.counts.has(uri);
  }

  /** The URIs some open stream names, in the order first named. */
  uris(): string[] {
    return [...this.counts.keys()];
  }

  private release(id: StreamId): string[] {
    const uris = this.streams.get(id);
    if (uris === undefined) {
      return [];
    }
    this.streams.delete(id);
    const removed: string[] = [];
    for (const uri of uris) {
      const count = (this.counts.get(uri) ?? 1) - 1;
      if (count === 0) {
        this.counts.delete(uri);
        removed.push(uri);
      } else {
        this.counts.set(uri, count);
      }
    }
    return removed;
  }

  private async announce(added: readonly string[], removed: readonly string[]): Promise<void> {
    if (added.length > 0 || removed.length > 0) {
      const change = { added, removed };
      await Promise.all([...this.listeners].map(async (listener) => listener(change)));
    }
  }
}

/** What of a ResourceService the listened URIs drive (its `subscribe` and `unsubscribe`). */
export interface Subscribable {
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): void;
}

/**
 * Keeps `service` subscribed to the URIs `listened` names, now and as streams open and end: the
 * same path as `resources/subscribe` (its cap, its containment and watch-target rules). A URI
 * that names nothing served is left out quietly (the listen stream does not tell the client
 * either) and tried again after each reload of the plugin files (`reloads`), where it may be
 * served from then on (a new file of a glob, a file approved since); those over the cap are
 * logged, in one line however many.
 */
export function subscribeToListened(
  service: Subscribable,
  listened: ListenedResources,
  logger: Logger,
  reloads?: { onDidChange(listener: () => void): Disposable },
): Disposable {
  let live = true;
  /**
   * Subscribes to `uris`; those that cannot be followed (over the cap) are logged in one line, not
   * one each: a stream may name thousands. `quiet`: a retry after a reload, which logs nothing again.
   */
  const add = async (uris: readonly string[], quiet = false): Promise<void> => {
    const refused: { readonly uri: string; readonly reason: string }[] = [];
    await Promise.all(
      uris.map((uri) =>
        service.subscribe(uri).then(
          // A stream that ended while the subscription was being made leaves nothing watched.
          () => {
            if (!live || !listened.names(uri)) {
              service.unsubscribe(uri);
            }
          },
          (error: unknown) => {
            if (!(error instanceof UnknownResourceError)) {
              refused.push({ uri, reason: error instanceof Error ? error.message : String(error) });
            }
          },
        ),
      ),
    );
    if (!quiet && refused.length > 0) {
      logger.warn(`[mcp] subscriptions/listen: ${refusalSummary(refused)}`);
    }
  };
  void add(listened.uris());
  const subscription = listened.onDidChange(async ({ added, removed }) => {
    removed.forEach((uri) => service.unsubscribe(uri));
    await add(added);
  });
  // A URI already subscribed returns at once (ResourceService.subscribe), so this retries only the
  // ones that were not served.
  const reloaded = reloads?.onDidChange(() => void add(listened.uris(), true));
  return {
    dispose: () => {
      live = false;
      subscription.dispose();
      reloaded?.dispose();
    },
  };
}

/** One line for the URIs that cannot be followed: the first, and how many more, for how many reasons. */
function refusalSummary(refused: readonly { readonly uri: string; readonly reason: string }[]): string {
  const [first] = refused;
  const more = refused.length - 1;
  const reasons = new Set(refused.map(({ reason }) => reason)).size;
  const rest = more === 0 ? '' : ` (and ${more} more URI${more === 1 ? '' : 's'}, ${reasons === 1 ? 'for the same reason' : `for ${reasons} different reasons`})`;
  return `cannot follow ${first?.uri ?? ''}: ${first?.reason ?? ''}${rest}`;
}
