/**
 * Work waiting, kept per tenant and handed out in turns: of the tenants with work waiting, the one that has
 * waited longest since its last turn goes first, its oldest item, then it goes to the back. One tenant's backlog
 * (a hundred batches queued) then delays another tenant's first item by one item per turn, not by the backlog.
 */
export class TenantTurns<T> {
  /** Insertion order is turn order: a tenant is moved to the end when it takes a turn and has more waiting. */
  private readonly waiting = new Map<string, T[]>();
  private count = 0;

  /** Items waiting, every tenant's. */
  get size(): number {
    return this.count;
  }

  push(tenant: string, item: T): void {
    const queue = this.waiting.get(tenant);
    if (queue === undefined) this.waiting.set(tenant, [item]);
    else queue.push(item);
    this.count++;
  }

  /** The tenants with work waiting, in turn order (a copy: taking turns while reading it is fine). */
  tenants(): string[] {
    return [...this.waiting.keys()];
  }

  /** `tenant`'s oldest item, its turn taken (it goes to the back of the turn order); undefined if none waits. */
  take(tenant: string): T | undefined {
    const queue = this.waiting.get(tenant);
    const item = queue?.shift();
    if (queue === undefined || item === undefined) return undefined;
    this.waiting.delete(tenant);
    if (queue.length > 0) this.waiting.set(tenant, queue);
    this.count--;
    return item;
  }

  /** Every item still waiting, oldest of each tenant first; the queue is left empty. */
  drain(): T[] {
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    this.count = 0;
    return all;
  }
}
