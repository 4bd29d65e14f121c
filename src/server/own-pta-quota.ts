/**
 * A tenant's own PTAs (the `tenant` reference scope), every task together, hold at most `ptaBytesPerTenant` bytes
 * of JSON in the store (`--limit ptaBytesPerTenant=N`, 0: no bound). Without it one agent token filled the data
 * folder: 60 references an hour, each task's own PTA up to `ptaBytes` (16 MiB), none ever removed (a tenant now removes
 * its own with `DELETE /v1/tasks/:task/pta`, which releases their bytes here). A growth of an
 * own PTA is admitted where the store serialises it (store-port.ts, `Contribution.admit`), against what the
 * tenant's own PTAs hold (read from the store when none of its additions is under way on this replica, so growths
 * of other replicas count) plus its growths admitted here and not yet stored. Past the limit: `quota_exceeded`
 * naming the bytes and the limit; nothing is stored and the PTAs it holds are kept.
 */
import { SteplensError } from '../errors.js';
import type { Contribution, ReferenceStorePort, RemovedPta } from '../store/store-port.js';
import { ownerOfKey } from '../store/tenant-keys.js';

interface Tally {
  /** Bytes its own PTAs held when last read, with this replica's growths stored since. */
  held: number;
  /** Bytes of growths admitted here, not yet stored or refused. */
  pending: number;
  /** Its additions and removals under way here: the store is read again only when one starts with none. */
  active: number;
  reading: Promise<void> | undefined;
}

export class OwnPtaQuota {
  private readonly tallies = new Map<string, Tally>();

  constructor(
    private readonly store: ReferenceStorePort,
    readonly limit: number,
  ) {}

  /** The JSON bytes `tenant`'s own PTAs hold in the store. */
  async held(tenant: string): Promise<number> {
    const keys = (await this.store.tasks()).filter((k) => ownerOfKey(k)?.tenant === tenant);
    return (await this.store.sizes(keys)).reduce((a, b) => a + b, 0);
  }

  /** Runs one growth of `tenant`'s own PTA of `task` (`grow` hands `admit` to the store), within the tenant's bytes. */
  add<T>(tenant: string, task: string, grow: (admit: NonNullable<Contribution['admit']>) => Promise<T>): Promise<T> {
    return this.counted(tenant, async (tally) => {
      // Already full: refused before the growth is computed (any reference adds bytes).
      if (tally.held + tally.pending >= this.limit) throw this.refusal(tenant, task, tally, tally.held + tally.pending + 1);
      return await grow((bytes, previous) => this.admit(tenant, task, tally, bytes - previous));
    });
  }

  /**
   * Runs the removal of one of `tenant`'s own PTAs: the bytes it held are released at once, so the tenant may add
   * again. The store serialises it with the task's growths, so the bytes removed are those of every growth it
   * stored before (counted in `held` already) and none after (each counted from 0: a PTA built anew).
   */
  remove(tenant: string, remove: () => Promise<RemovedPta | undefined>): Promise<RemovedPta | undefined> {
    return this.counted(tenant, async (tally) => {
      const removed = await remove();
      if (removed !== undefined) tally.held = Math.max(0, tally.held - removed.bytes);
      return removed;
    });
  }

  /** Runs `op` as one of `tenant`'s changes under way here, its tally read from the store first when none was. */
  private async counted<T>(tenant: string, op: (tally: Tally) => Promise<T>): Promise<T> {
    let t = this.tallies.get(tenant);
    if (t === undefined) {
      t = { held: 0, pending: 0, active: 0, reading: undefined };
      this.tallies.set(tenant, t);
    }
    const tally = t;
    tally.active++;
    try {
      // Nothing of the tenant's is in flight here: what the store holds now is the whole truth.
      if (tally.active === 1) tally.reading = this.held(tenant).then((held) => void (tally.held = held));
      await tally.reading;
      return await op(tally);
    } finally {
      tally.active--;
    }
  }

  private admit(tenant: string, task: string, t: Tally, delta: number): (stored: boolean) => void {
    const total = t.held + t.pending + delta;
    if (delta > 0 && total > this.limit) throw this.refusal(tenant, task, t, total);
    t.pending += delta;
    return (stored) => {
      t.pending -= delta;
      if (stored) t.held += delta;
    };
  }

  private refusal(tenant: string, task: string, t: Tally, total: number): SteplensError {
    return new SteplensError(
      'quota_exceeded',
      `task ${task} (this tenant's own PTA): refused: tenant ${tenant}'s own PTAs would take ${total} bytes or more, over its limit of ${this.limit} (ptaBytesPerTenant; they hold ${t.held + t.pending}); nothing was stored, the PTAs it holds are kept`,
    );
  }
}
