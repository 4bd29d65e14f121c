/**
 * The ended sessions a server keeps for the resume window (`resume` re-sends their frames and final, GET
 * /v1/sessions/:id reports them), bounded by count and by bytes, so a flood of short sessions cannot grow
 * memory while none is open. Past a bound, the oldest ended session of the tenant holding the most (entries
 * past the count bound, bytes past the byte bound) goes first: one tenant's flood frees its own sessions,
 * not another tenant's final its client is about to read. The newest is always kept (its client may be
 * about to read its final). Each add costs O(log tenants), amortised over the sessions it frees.
 */

export interface EndedLimits {
  maxEndedSessions: number;
  maxEndedSessionBytes: number;
}

/** A kept session, in its tenant's list (oldest first). */
interface Entry {
  key: string;
  bytes: number;
  /** When it was added, over every tenant: ties between tenants go to the older oldest. */
  order: number;
  holder: Holder;
  prev: Entry | undefined;
  next: Entry | undefined;
}

/**
 * One tenant's kept sessions, as a linked list rather than a Map's insertion order: a Map whose oldest keys
 * keep being deleted leaves holes that reading its first entry walks over (about 25 us per add at 10,000).
 */
interface Holder {
  tenant: string;
  head: Entry | undefined;
  tail: Entry | undefined;
  count: number;
  bytes: number;
}

const oldest = (h: Holder): Entry => h.head!;

/** A binary max-heap of holders by a weight (ties: the holder with the older oldest first), updated in place. */
class HolderHeap {
  private readonly items: Holder[] = [];
  private readonly at = new Map<Holder, number>();

  constructor(private readonly weight: (h: Holder) => number) {}

  private above(a: Holder, b: Holder): boolean {
    const d = this.weight(a) - this.weight(b);
    return d > 0 || (d === 0 && oldest(a).order < oldest(b).order);
  }

  /** The heaviest holder; with `skip` (the heaviest), the next one. */
  top(skip?: Holder): Holder | undefined {
    const [first, left, right] = this.items;
    if (first !== skip) return first;
    if (left === undefined || right === undefined) return left;
    return this.above(left, right) ? left : right;
  }

  /** Puts `h` in, or back in place after its weight or its oldest entry changed. */
  update(h: Holder): void {
    let i = this.at.get(h);
    if (i === undefined) {
      i = this.items.push(h) - 1;
      this.at.set(h, i);
    }
    this.down(this.up(i));
  }

  remove(h: Holder): void {
    const i = this.at.get(h);
    if (i === undefined) return;
    this.at.delete(h);
    const last = this.items.pop()!;
    if (last === h) return;
    this.place(last, i);
    this.down(this.up(i));
  }

  private place(h: Holder, i: number): void {
    this.items[i] = h;
    this.at.set(h, i);
  }

  private up(i: number): number {
    const h = this.items[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.above(h, this.items[parent]!)) break;
      this.place(this.items[parent]!, i);
      i = parent;
    }
    this.place(h, i);
    return i;
  }

  private down(i: number): void {
    const h = this.items[i]!;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= this.items.length) break;
      if (child + 1 < this.items.length && this.above(this.items[child + 1]!, this.items[child]!)) child++;
      if (!this.above(this.items[child]!, h)) break;
      this.place(this.items[child]!, i);
      i = child;
    }
    this.place(h, i);
  }
}

export class EndedSessions {
  private readonly kept = new Map<string, Entry>();
  private readonly holders = new Map<string, Holder>();
  private readonly byCount = new HolderHeap((h) => h.count);
  private readonly byBytes = new HolderHeap((h) => h.bytes);
  private total = 0;
  private order = 0;

  constructor(private readonly limits: EndedLimits) {}

  /** Records an ended session of `tenant`; returns the keys to free (in the order freed) to stay within the bounds. */
  add(key: string, tenant: string, bytes: number): string[] {
    this.delete(key);
    let holder = this.holders.get(tenant);
    if (holder === undefined) this.holders.set(tenant, (holder = { tenant, head: undefined, tail: undefined, count: 0, bytes: 0 }));
    const entry: Entry = { key, bytes, order: this.order++, holder, prev: holder.tail, next: undefined };
    if (holder.tail !== undefined) holder.tail.next = entry;
    else holder.head = entry;
    holder.tail = entry;
    holder.count++;
    holder.bytes += bytes;
    this.total += bytes;
    this.kept.set(key, entry);
    this.changed(holder);
    const evicted: string[] = [];
    while (this.kept.size > 1 && (this.kept.size > this.limits.maxEndedSessions || this.total > this.limits.maxEndedSessionBytes)) {
      const heap = this.kept.size > this.limits.maxEndedSessions ? this.byCount : this.byBytes;
      let from = heap.top()!;
      // The newest is kept: when its tenant holds the most with it alone, the next tenant gives way.
      if (oldest(from) === entry) from = heap.top(from)!;
      const victim = oldest(from).key;
      this.delete(victim);
      evicted.push(victim);
    }
    return evicted;
  }

  /** Forgets a session (freed by the sweep or evicted). */
  delete(key: string): void {
    const entry = this.kept.get(key);
    if (entry === undefined) return;
    const { holder, prev, next } = entry;
    if (prev !== undefined) prev.next = next;
    else holder.head = next;
    if (next !== undefined) next.prev = prev;
    else holder.tail = prev;
    holder.count--;
    holder.bytes -= entry.bytes;
    this.total -= entry.bytes;
    this.kept.delete(key);
    if (holder.count > 0) return this.changed(holder);
    this.holders.delete(holder.tenant);
    this.byCount.remove(holder);
    this.byBytes.remove(holder);
  }

  private changed(h: Holder): void {
    this.byCount.update(h);
    this.byBytes.update(h);
  }

  get count(): number {
    return this.kept.size;
  }

  get bytes(): number {
    return this.total;
  }
}
