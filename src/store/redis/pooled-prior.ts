/**
 * The Redis store's pooled prior (prior-pool.ts) over every shared task's current version, brought up to date by
 * reading only the tasks whose version changed since the last call; tenants' own PTAs never enter it.
 */
import type { Pta, TemporalPrior } from '../../core/scorer-api.js';
import { SteplensError } from '../../errors.js';
import { PriorPool } from '../prior-pool.js';
import { isOwnKey } from '../tenant-keys.js';

export class PooledPrior {
  private pool = new PriorPool();
  /** Per task, the version its contribution was read at. */
  private readonly pooled = new Map<string, number>();

  constructor(private readonly warn?: (message: string) => void) {}

  /** Forgets every contribution (Redis was emptied, or reconnected: its versions may not be ours). */
  clear(): void {
    this.pool = new PriorPool();
    this.pooled.clear();
  }

  /**
   * The prior over `versions` (every task's current version): `read` fetches a task's PTA at a version. Redis
   * unreachable fails the call; a task that cannot be read otherwise is skipped (named once) until its version moves.
   */
  async update(versions: ReadonlyMap<string, number>, read: (task: string, version: number) => Promise<Pta | undefined>): Promise<TemporalPrior> {
    for (const [task, version] of versions) {
      if (this.pooled.get(task) === version || isOwnKey(task)) continue;
      try {
        const pta = await read(task, version);
        if (pta) this.pool.set(pta);
        this.pooled.set(task, pta?.version ?? version);
      } catch (error) {
        if (error instanceof SteplensError && error.code === 'unavailable') throw error;
        this.warn?.(`prior: skipping task ${task}: ${(error as Error).message}`);
        this.pooled.set(task, version);
      }
    }
    // Tasks Redis no longer holds (lost in a restart without persistence) leave the prior too.
    for (const task of [...this.pooled.keys()]) {
      if (versions.has(task)) continue;
      this.pooled.delete(task);
      this.pool.delete(task);
    }
    return this.pool.prior();
  }
}
