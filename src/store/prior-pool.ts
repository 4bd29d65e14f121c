/**
 * The pooled temporal prior over every stored task: keeps, per task, only what
 * the prior needs (window sums and reference stats, no nodes), so the prior can
 * be recomputed on each change without holding every PTA in memory. Tenants' own
 * PTAs (tenant-keys.ts) are left out: the prior scores every tenant's sessions of
 * tasks without a PTA, so one tenant's references must not move it.
 */
import { priorFromPtas } from '../core/prior.js';
import type { Pta, TemporalPrior } from '../core/scorer-api.js';
import { isOwnKey } from './tenant-keys.js';

export class PriorPool {
  private readonly light = new Map<string, Pta>();
  private cached: TemporalPrior | undefined;

  /** Records (or replaces) a task's contribution; a tenant's own PTA contributes nothing. */
  set(pta: Pta): void {
    if (isOwnKey(pta.task)) return;
    const root = pta.nodes[0] ?? { id: 0, parent: null, children: [], state: null, refs: 0 };
    this.light.set(pta.task, {
      ...pta,
      nodes: [{ ...root, children: [] }],
      windowSums: structuredClone(pta.windowSums),
      references: pta.references.map((r) => ({ ...r })),
      files: [],
    });
    this.cached = undefined;
  }

  /** Drops a task's contribution (its file became unusable). */
  delete(task: string): void {
    if (this.light.delete(task)) this.cached = undefined;
  }

  /** The prior pooled from every recorded task (recomputed after a change). */
  prior(): TemporalPrior {
    this.cached ??= priorFromPtas([...this.light.values()]);
    return this.cached;
  }

  get size(): number {
    return this.light.size;
  }
}
