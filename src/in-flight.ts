/**
 * One promise per key while it runs, shared by every caller that comes meanwhile: a session's end (a client `end`,
 * the sweep and shutdown may race), a takeover of a session from the journal, a rebuilt copy of a session, a
 * `GET /v1/policies` document. Forgotten once it settles, so the next call starts anew.
 */
export class InFlight<K, V> {
  private readonly running = new Map<K, Promise<V>>();

  /** Whether work runs under `key` now. */
  has(key: K): boolean {
    return this.running.has(key);
  }

  /** Stops sharing the work under `key` before it settles (it goes on; the next call starts anew). */
  forget(key: K): void {
    this.running.delete(key);
  }

  /** The promise running under `key`, else `start()`'s, shared until it settles. */
  run(key: K, start: () => Promise<V>): Promise<V> {
    const under = this.running.get(key);
    if (under !== undefined) return under;
    // Deleted only if still its own: after a `forget`, another call's work may run under the key.
    const started: Promise<V> = start().finally(() => {
      if (this.running.get(key) === started) this.running.delete(key);
    });
    this.running.set(key, started);
    return started;
  }
}
