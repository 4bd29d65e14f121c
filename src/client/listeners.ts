/** A small listener set whose callbacks' exceptions are reported, never thrown into the socket's event loop. */
export class Listeners<T> {
  private readonly callbacks = new Set<(value: T) => void>();

  constructor(private readonly report: (error: unknown) => void) {}

  /** Adds a callback; returns its unsubscribe function. */
  add(cb: (value: T) => void): () => void {
    this.callbacks.add(cb);
    return () => void this.callbacks.delete(cb);
  }

  /** Calls every callback; false when there is none. */
  emit(value: T): boolean {
    for (const cb of [...this.callbacks]) {
      try {
        cb(value);
      } catch (error) {
        this.report(error);
      }
    }
    return this.callbacks.size > 0;
  }
}
