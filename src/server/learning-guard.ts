/**
 * Learning under control: who may grow a PTA, and by how much. Every reference records its tenant
 * (`ReferenceStats.by`). A tenant that is not an operator may add, through `POST
 * /v1/tasks/:task/references` or a `learn` session:
 *
 * - at most `referencesPerTenantPerTask` references to one task (counted in the PTA it grows, so every replica
 *   agrees: the shared one, or in `tenant` reference scope its own), and at most `referencesPerTenantPerHour` in
 *   all (per replica);
 * - in `shared` reference scope, where its reference grows the PTA every tenant's sessions of the task are scored
 *   against (and which feeds the pooled prior): to a PTA already in use as a reference (`minReferences`
 *   references), only a reference that opens at most `referenceNovelty` x its nodes (core/pta/novelty.ts: each
 *   new node lowers Φcov for every run scored against it); one that would change the PTA more needs an
 *   operator's token. In `tenant` scope its reference grows its own PTA, which nobody else is scored against:
 *   no such rule (reference-scope.ts).
 *
 * Operators are bounded only by the store's own caps, and so is everyone on a server with one tenant (auth
 * off, or every token of one tenant): nobody else's scores depend on what it learns.
 */
import { nodesOpened } from '../core/pta/index.js';
import type { Pta } from '../core/scorer-api.js';
import type { State } from '../core/types.js';
import { SteplensError } from '../errors.js';
import type { Contribution } from '../store/store-port.js';
import { can, type Principal } from './principal.js';
import type { ServerLimits } from './server-limits.js';

const HOUR_MS = 3_600_000;

export class LearningGuard {
  /** Per tenant, when its last references were accepted (at most `referencesPerTenantPerHour` kept). */
  private readonly recent = new Map<string, number[]>();

  constructor(
    private readonly limits: Pick<ServerLimits, 'referencesPerTenantPerTask' | 'referencesPerTenantPerHour' | 'referenceNovelty'>,
    private readonly minReferences: number,
    /** Whether several tenants share the store (else every contribution is let through, only attributed). */
    private readonly shared: boolean,
    /** Whether a tenant's reference grows the PTA other tenants use (`shared` reference scope): the novelty rule applies. */
    private readonly novelty: boolean,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Adds one reference of `principal` through `add` (the store's `addReference` with the contribution it is given):
   * its name and the per-task check. Throws `quota_exceeded` when the tenant used up its hourly budget. A slot of
   * that budget is taken while `add` runs (so concurrent requests cannot pass it together) and given back when `add`
   * throws: a reference the per-task quota, the novelty rule, a cap or a full disk refused added nothing.
   */
  async contribute<T>(principal: Principal, how: 'reference' | 'learn', add: (c: Contribution) => Promise<T>): Promise<T> {
    if (!this.shared || can(principal, 'operate')) return add({ by: principal.tenant });
    const now = this.now();
    const times = (this.recent.get(principal.tenant) ?? []).filter((t) => now - t < HOUR_MS);
    if (times.length >= this.limits.referencesPerTenantPerHour) {
      this.recent.set(principal.tenant, times);
      const wait = Math.ceil((HOUR_MS - (now - times[0]!)) / 60_000); // length >= the budget >= 1
      throw new SteplensError('quota_exceeded', `${what(how)} refused: this tenant added ${times.length} references in the last hour, its limit; try again in ${wait} min`);
    }
    times.push(now);
    this.recent.set(principal.tenant, times);
    try {
      return await add({ by: principal.tenant, check: (current, states) => this.check(principal.tenant, how, current, states) });
    } catch (error) {
      this.giveBack(principal.tenant, now);
      throw error;
    }
  }

  /** Frees the slot taken at `at` (the tenant's list may have been pruned and replaced meanwhile: look it up again). */
  private giveBack(tenant: string, at: number): void {
    const times = this.recent.get(tenant);
    const i = times?.lastIndexOf(at) ?? -1;
    if (i >= 0) times!.splice(i, 1);
  }

  private check(tenant: string, how: 'reference' | 'learn', current: Pta | undefined, states: readonly State[]): void {
    if (current === undefined) return;
    const mine = current.references.filter((r) => r.by === tenant).length;
    if (mine >= this.limits.referencesPerTenantPerTask) {
      throw new SteplensError('quota_exceeded', `${what(how)} refused: this tenant already added ${mine} references to task ${current.task}, its limit (an operator may add more)`);
    }
    if (!this.novelty || current.references.length < this.minReferences) return;
    const nodes = current.nodes.length - 1;
    const opened = nodesOpened(current, states);
    if (opened > this.limits.referenceNovelty * nodes) {
      throw new SteplensError(
        'forbidden',
        `${what(how)} refused: it would add ${opened} nodes to the ${nodes} of task ${current.task}'s PTA, more than ${Math.round(this.limits.referenceNovelty * 100)} %: an operator's token is needed to change a shared reference that much`,
      );
    }
  }
}

const what = (how: 'reference' | 'learn'): string => (how === 'learn' ? 'learning the session' : 'the reference');
