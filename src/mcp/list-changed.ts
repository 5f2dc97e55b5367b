/**
 * When to send `notifications/tools/list_changed`: when the tool list differs from the one the
 * client can have seen, and at no other time. The first load is not a change: it runs while the
 * client connects, and `tools/list` waits for it, so no client ever saw the list before it.
 */
import type { Disposable, Event } from '../core/registry/emitter';

/** The part of the tool registry this needs. */
export interface ChangingToolList {
  /** Changes whenever what is served changes (and a cursor into the old list turns invalid). */
  readonly fingerprint: string;
  readonly onDidChange: Event<void>;
  /** Resolves once the first load is done. */
  initialize(): Promise<void>;
}

/** Calls `announce` once for each change of `tools` after its first load. */
export function announceToolListChanges(tools: ChangingToolList, announce: () => void): Disposable {
  // The fingerprint clients know; undefined until the first load has finished.
  let known: string | undefined;
  void tools.initialize().then(() => {
    known ??= tools.fingerprint;
  });
  return tools.onDidChange(() => {
    if (known === undefined || tools.fingerprint === known) {
      return;
    }
    known = tools.fingerprint;
    announce();
  });
}
