import type { Disposable } from '../types';

export type { Disposable } from '../types';

/** A subscribable event, shaped like VS Code's `Event<T>` so adapters can pass it through. */
export type Listener<T> = (value: T) => void;
export type Event<T> = (listener: Listener<T>) => Disposable;

/**
 * A minimal event emitter for plain Node code (src/core cannot use vscode.EventEmitter).
 * A listener that throws does not stop the others.
 */
export class Emitter<T> {
  private readonly listeners = new Set<Listener<T>>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch {
        // One faulty subscriber must not break change delivery to the rest.
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
