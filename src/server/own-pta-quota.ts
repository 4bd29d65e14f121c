/**
 * A tenant's own PTAs (the `tenant` reference scope), every task together, hold at most `ptaBytesPerTenant` bytes
 * of JSON in the store (`--limit ptaBytesPerTenant=N`, 0: no bound). Without it one agent token filled the data
 * folder: 60 references an hour, each task's own PTA up to `ptaBytes` (16 MiB), none ever removed (a tenant now removes
 * its own with `DELETE /v1/tasks/:task/pta`, which releases their bytes here). A growth of an
 * own PTA is admitted where the store serialises it (store-port.ts, `Contribution.admit`), against what the
 * tenant's own PTAs hold (read from the store when none of its additions is under way on this replica, so growths
 * of other replicas count) plus its growths admitted here and not yet stored. Past the limit: `quota_exceeded`
 * naming the bytes and the limit; nothing is stored and the PTAs it holds are kept.
 *
 * A removed PTA's bytes stay in Redis for the session lifetime (35 min: its chain, for sessions pinned to it), so a
 * tenant adding a 13 MB reference and removing it again, 60 times an hour, made Redis hold 840 MB nothing counted
 * (T79). What this replica removed for a tenant and the store still keeps counts too: its own PTAs and those
 * together hold at most twice the limit, so a tenant at its limit may still remove a PTA and add one in its place
 * (T22) once, not again and again.
 */
import { SteplensError } from '../errors.js';
import type { Contribution, ReferenceStorePort, RemovedPta } from '../store/store-port.js';

interface Tally {
  /** Bytes its own PTAs held when last read, with this replica's growths stored since. */
  held: number;
  /** Bytes of growths admitted here, not yet stored or refused. */
  pending: number;
  /** Its additions and removals under way here: the store is read again only when one starts with none. */
  active: number;
  reading: Promise<void> | undefined;
  /** What this replica removed and the store still keeps (bytes, until when), oldest first. */
  kept: Array<{ bytes: number; until: number }>;
}

export class OwnPtaQuota {
  private readonly tallies = new Map<string, Tally>();

  constructor(
    private readonly store: ReferenceStorePort,
    readonly limit: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The JSON bytes `tenant`'s own PTAs hold in the store. */
  async held(tenant: string): Promise<number> {
    return (await this.store.sizes(await this.store.ownTasks(tenant))).reduce((a, b) => a + b, 0);
  }

  /** Runs one growth of `tenant`'s own PTA of `task` (`grow` hands `admit` to the store), within the tenant's bytes. */
  add<T>(tenant: string, task: string, grow: (admit: NonNullable<Contribution['admit']>) => Promise<T>): Promise<T> {
    return this.counted(tenant, async (tally) => {
      // Already full: refused before the growth is computed (any reference adds bytes).
      if (this.over(tally, 1)) throw this.refusal(tenant, task, tally, tally.held + tally.pending + 1);
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
      if (removed === undefined) return removed;
      tally.held = Math.max(0, tally.held - removed.bytes);
      if ((removed.keptMs ?? 0) > 0) tally.kept.push({ bytes: removed.bytes, until: this.now() + removed.keptMs! });
      return removed;
    });
  }

  /** Runs `op` as one of `tenant`'s changes under way here, its tally read from the store first when none was. */
  private async counted<T>(tenant: string, op: (tally: Tally) => Promise<T>): Promise<T> {
    let t = this.tallies.get(tenant);
    if (t === undefined) {
      t = { held: 0, pending: 0, active: 0, reading: undefined, kept: [] };
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

  /** True when `delta` more bytes take the tenant's PTAs past the limit, or with what the store keeps of removed ones past twice it. */
  private over(t: Tally, delta: number): boolean {
    const now = this.now();
    while (t.kept.length > 0 && t.kept[0]!.until <= now) t.kept.shift();
    const kept = t.kept.reduce((sum, k) => sum + k.bytes, 0);
    const total = t.held + t.pending + delta;
    return total > this.limit || total + kept > 2 * this.limit;
  }

  private admit(tenant: string, task: string, t: Tally, delta: number): (stored: boolean) => void {
    const total = t.held + t.pending + delta;
    if (delta > 0 && this.over(t, delta)) throw this.refusal(tenant, task, t, total);
    t.pending += delta;
    return (stored) => {
      t.pending -= delta;
      if (stored) t.held += delta;
    };
  }

  private refusal(tenant: string, task: string, t: Tally, total: number): SteplensError {
    const start = `task ${task} (this tenant's own PTA): refused: tenant ${tenant}'s own PTAs would take ${total} bytes or more`;
    const end = 'nothing was stored, the PTAs it holds are kept';
    if (total > this.limit) return new SteplensError('quota_exceeded', `${start}, over its limit of ${this.limit} (ptaBytesPerTenant; they hold ${t.held + t.pending}); ${end}`);
    const kept = t.kept.reduce((sum, k) => sum + k.bytes, 0);
    const minutes = Math.max(1, Math.ceil(((t.kept.at(-1)?.until ?? 0) - this.now()) / 60_000));
    return new SteplensError(
      'quota_exceeded',
      `${start}, and with the ${kept} bytes of those it removed that the store still keeps (for ${minutes} min at most) over twice its limit of ${this.limit} (ptaBytesPerTenant); ${end}`,
    );
  }
}
