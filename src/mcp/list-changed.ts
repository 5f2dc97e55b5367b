/**
 * When to send `notifications/tools/list_changed`: when the tool list changed after the client
 * could have seen it, and at no other time. The registry fires its change event only when what
 * it serves changed (its fingerprint); the first load is not a change for a client: it runs while
 * the client connects, and `tools/list` waits for it, so no client ever saw the list before it.
 */
import type { Disposable, Event } from '../core/registry/emitter';

/** The part of the tool registry this needs. */
interface ChangingToolList {
  /** Fires whenever what is served changes (and a cursor into the old list turns invalid). */
  readonly onDidChange: Event<void>;
  /** Resolves once the first load is done. */
  initialize(): Promise<void>;
}

/** Calls `announce` once for each change of `tools` after its first load. */
export function announceToolListChanges(tools: ChangingToolList, announce: () => void): Disposable {
  let loaded = false;
  void tools.initialize().then(() => {
    loaded = true;
  });
  return tools.onDidChange(() => {
    if (loaded) {
      announce();
    }
  });
}
