/**
 * Reload coalescing: a reload asked for while one runs is done once more after it (however many
 * were asked for), so no change is missed and no two loads overlap.
 */
export class CoalescedReload {
  private running: Promise<boolean> | undefined;
  private queued: Promise<boolean> | undefined;

  /**
   * `load` resolves to whether anything changed. A failed load is handed to `onError`, which
   * says what to resolve to: a reload never rejects, so callers that fire and forget (watchers,
   * the first load after initialize) cannot crash.
   */
  constructor(
    private readonly load: () => Promise<boolean>,
    private readonly onError: (error: unknown) => boolean,
  ) {}

  /** Loads now, or once more after the load that runs; resolves to whether anything changed. */
  run(): Promise<boolean> {
    if (this.running === undefined) {
      this.running = this.load()
        .catch(this.onError)
        .finally(() => {
          this.running = undefined;
        });
      return this.running;
    }
    this.queued ??= this.running.then(() => {
      this.queued = undefined;
      return this.run();
    });
    return this.queued;
  }
}
