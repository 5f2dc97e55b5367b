/**
 * Makes sure VS Code asks for the lenses of a plugin file shown in an editor, and asks again after they changed.
 *
 * Why (VS Code 1.139, editor/contrib/codelens/browser/codelensController.ts): an editor asks its CodeLens providers
 * through a debounced scheduler (250 ms or more) that runs when the file is shown, when its text changes, when it
 * gains focus and when a provider fires onDidChangeCodeLenses; and the editor CANCELS that scheduler when its text
 * loses focus. A plugin file opened and left at once (back to the tools view, a command, a dialog) is then never
 * asked: it keeps drawing what VS Code's lens cache remembered of its last editor (Approve… for a file approved
 * while closed) or, opened for the first time, no lens at all, until someone clicks into it. Firing the change
 * event once focus has gone reschedules the request, and nothing cancels it any more.
 *
 * So: each time a plugin file is shown, or the lenses change, expect VS Code to ask for that file; if it has not
 * asked after a moment, fire the change event again, a few times, waiting longer each time (firing reschedules a
 * pending request, so a check that came too early only delays it). Pure: no `vscode`.
 */

/** How long to wait for VS Code to ask before each new nudge, ms; then it stops (e.g. CodeLens turned off). */
export const ASK_CHECK_DELAYS: readonly number[] = [1000, 2000, 4000, 8000];

export interface LensAskWatchOptions {
  /** Fire the provider's onDidChangeCodeLenses: each editor showing a matching file schedules a request. */
  readonly nudge: () => void;
  /** The files (URI strings) shown in an editor now whose lenses matter. */
  readonly shown: () => Iterable<string>;
  readonly delays?: readonly number[];
}

export class LensAskWatch {
  /** The files VS Code has not asked for since they were expected (or last nudged). */
  private readonly waiting = new Set<string>();
  private readonly delays: readonly number[];
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: LensAskWatchOptions) {
    this.delays = options.delays ?? ASK_CHECK_DELAYS;
  }

  /** VS Code asked for this file's lenses (the provider was called). */
  asked(uri: string): void {
    this.waiting.delete(uri);
  }

  /** These files were just shown, or their lenses just changed: VS Code should ask for them soon. */
  expect(uris: Iterable<string>): void {
    let added = false;
    for (const uri of uris) {
      this.waiting.add(uri);
      added = true;
    }
    if (added) {
      this.attempt = 0;
      this.arm();
    }
  }

  /** A file closed: nothing to wait for. */
  forget(uri: string): void {
    this.waiting.delete(uri);
  }

  /** Whether a check is pending (for tests). */
  get pending(): boolean {
    return this.timer !== undefined;
  }

  dispose(): void {
    this.stop();
    this.waiting.clear();
  }

  private arm(): void {
    this.stop();
    const delay = this.delays[this.attempt];
    if (delay === undefined) {
      this.waiting.clear();
      return;
    }
    this.timer = setTimeout(() => this.check(), delay);
  }

  private stop(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  private check(): void {
    this.timer = undefined;
    const shown = new Set(this.options.shown());
    for (const uri of this.waiting) {
      if (!shown.has(uri)) {
        this.waiting.delete(uri);
      }
    }
    if (this.waiting.size === 0) {
      return;
    }
    this.attempt += 1;
    this.options.nudge();
    this.arm();
  }
}
