/**
 * At most a few tasks of one tenant run at once; the tenant's others wait their turn, in order, and never another
 * tenant's. For the rebuilds of sessions another replica holds (session-replay.ts, `ViewCopies`): each gives the event
 * loop back every few ms, so N of them at once make a turn of the loop N times as long, and one tenant naming its 64
 * sessions in 32 `POST /v1/rank` calls at once held every other client's ping up to 459 ms (T57).
 */
export class TenantSlots {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  /** `per`: tasks of one tenant at once (at least 1). */
  constructor(readonly per: number) {}

  /** Runs `task` once `tenant` has a slot free; its slot goes to the tenant's next waiting task when it settles. */
  async run<T>(tenant: string, task: () => Promise<T>): Promise<T> {
    const now = this.running.get(tenant) ?? 0;
    if (now < Math.max(1, this.per)) this.running.set(tenant, now + 1);
    else await new Promise<void>((resolve) => this.queueOf(tenant).push(resolve));
    try {
      return await task();
    } finally {
      this.release(tenant);
    }
  }

  /** Tasks of `tenant` waiting for a slot. */
  waitingOf(tenant: string): number {
    return this.waiting.get(tenant)?.length ?? 0;
  }

  private queueOf(tenant: string): Array<() => void> {
    let q = this.waiting.get(tenant);
    if (q === undefined) this.waiting.set(tenant, (q = []));
    return q;
  }

  private release(tenant: string): void {
    const q = this.waiting.get(tenant);
    const next = q?.shift();
    if (q?.length === 0) this.waiting.delete(tenant);
    // The slot passes to the next waiting task as it is (the count stays), else it is freed.
    if (next !== undefined) return next();
    const left = (this.running.get(tenant) ?? 1) - 1;
    if (left > 0) this.running.set(tenant, left);
    else this.running.delete(tenant);
  }
}
