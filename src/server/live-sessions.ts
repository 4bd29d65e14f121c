/**
 * The sessions a registry holds that have not ended, counted per tenant as they come and go: the per-tenant
 * quota is checked at every start, and walking every open session of every tenant there cost O(sessions).
 */
import type { Session } from './session.js';

export class LiveSessions {
  private readonly all = new Set<Session>();
  private readonly perTenant = new Map<string, number>();

  get size(): number {
    return this.all.size;
  }

  /** Every open session, in the order they opened. */
  values(): IterableIterator<Session> {
    return this.all.values();
  }

  /** Open sessions of `tenant`. */
  of(tenant: string): number {
    return this.perTenant.get(tenant) ?? 0;
  }

  add(session: Session): void {
    if (this.all.has(session)) return;
    this.all.add(session);
    this.perTenant.set(session.tenant, this.of(session.tenant) + 1);
  }

  delete(session: Session): void {
    if (!this.all.delete(session)) return;
    const n = this.of(session.tenant) - 1;
    if (n > 0) this.perTenant.set(session.tenant, n);
    else this.perTenant.delete(session.tenant);
  }

  /** The oldest detached session of the tenant holding the most open sessions, if any is detached: walks open sessions only. */
  reclaimable(): Session | undefined {
    let best: Session | undefined;
    for (const s of this.all) {
      if (s.ended || s.finishing || s.detachedAt === undefined) continue;
      const more = best === undefined ? 1 : this.of(s.tenant) - this.of(best.tenant);
      if (more > 0 || (more === 0 && s.detachedAt < best!.detachedAt!)) best = s;
    }
    return best;
  }
}
