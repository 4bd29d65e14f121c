/**
 * The registry's sessions in ordinal order, in all and per tenant. A page of `GET /v1/sessions` walked every
 * session the registry held to find its rows (another tenant's 10,000 ended sessions: ~3 ms a request, T40's
 * "Left"), and the live feed's snapshot of one tenant walked them too. Now a page is found by a binary search
 * on the ordinals of its scope's own list, and a scope is walked over its own sessions only.
 */
import type { Session } from './session.js';

/** An entry of a list: the session and its ordinal when listed (a session registered again is listed again, later). */
interface Listed {
  session: Session;
  ordinal: number;
}

/** One scope's sessions in ordinal order; removed ones are skipped until there are as many as live ones. */
class OrdinalList {
  private items: Listed[] = [];
  private readonly live = new Map<Session, Listed>();

  get size(): number {
    return this.live.size;
  }

  /** Ordinals only grow (the registry numbers every session it registers), so appending keeps the order. */
  add(session: Session): void {
    const entry = { session, ordinal: session.ordinal };
    this.items.push(entry);
    this.live.set(session, entry);
  }

  delete(session: Session): void {
    if (!this.live.delete(session)) return;
    if (this.items.length > 2 * this.live.size + 16) this.items = this.items.filter((e) => this.live.get(e.session) === e);
  }

  /** The first index whose ordinal is above `after`. */
  private firstAfter(after: number): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.items[mid]!.ordinal <= after) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The live sessions with an ordinal above `after`, oldest first. */
  *after(after: number): Generator<Session> {
    for (let i = this.firstAfter(after); i < this.items.length; i++) {
      const e = this.items[i]!;
      if (this.live.get(e.session) === e) yield e.session;
    }
  }
}

export class SessionIndex {
  private readonly all = new OrdinalList();
  private readonly byTenant = new Map<string, OrdinalList>();

  /** Registers `session`, whose ordinal is above every one registered before. */
  add(session: Session): void {
    this.all.add(session);
    let list = this.byTenant.get(session.tenant);
    if (list === undefined) this.byTenant.set(session.tenant, (list = new OrdinalList()));
    list.add(session);
  }

  delete(session: Session): void {
    this.all.delete(session);
    const list = this.byTenant.get(session.tenant);
    if (list === undefined) return;
    list.delete(session);
    if (list.size === 0) this.byTenant.delete(session.tenant);
  }

  /** The sessions of `tenant` (every tenant's when undefined) with an ordinal above `after`, oldest first. */
  of(tenant: string | undefined, after = 0): Iterable<Session> {
    if (tenant === undefined) return this.all.after(after);
    return this.byTenant.get(tenant)?.after(after) ?? [];
  }
}
