/**
 * The policy manager's agent + model pairs, bounded: agent and model names are the client's to choose, so a
 * table keyed by them must not grow with them (every pair becomes persisted state and /metrics series). At
 * most `max` pairs in all and `perTenant` per tenant; a new pair past a bound pushes out the least recently
 * used pair of its own tenant, or (past the total) of the tenant holding the most, so one tenant's names
 * never push out another's while it holds its share.
 */
export class PairTable<E extends { tenant: string }> {
  /** Least recently used first. */
  private readonly entries = new Map<string, E>();
  private readonly held = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly perTenant: number,
    private readonly onEvict: (key: string, entry: E) => void = () => undefined,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  values(): IterableIterator<E> {
    return this.entries.values();
  }

  /** The entry, without counting a use. */
  peek(key: string): E | undefined {
    return this.entries.get(key);
  }

  /** The entry, counted as used (it goes last in line for eviction). */
  use(key: string): E | undefined {
    const e = this.entries.get(key);
    if (e !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, e);
    }
    return e;
  }

  /** Adds an entry (not yet held), first making room within the bounds. */
  add(key: string, entry: E): void {
    if ((this.held.get(entry.tenant) ?? 0) >= this.perTenant) this.evictOldest(entry.tenant);
    else if (this.entries.size >= this.max) this.evictOldest(this.largestTenant());
    this.entries.set(key, entry);
    this.held.set(entry.tenant, (this.held.get(entry.tenant) ?? 0) + 1);
  }

  private largestTenant(): string | undefined {
    let best: string | undefined;
    for (const [tenant, n] of this.held) if (best === undefined || n > this.held.get(best)!) best = tenant; // best is a key of held
    return best;
  }

  private evictOldest(tenant: string | undefined): void {
    for (const [key, e] of this.entries) {
      if (e.tenant !== tenant) continue;
      this.entries.delete(key);
      const n = (this.held.get(tenant) ?? 1) - 1;
      if (n === 0) this.held.delete(tenant);
      else this.held.set(tenant, n);
      this.onEvict(key, e);
      return;
    }
  }
}
