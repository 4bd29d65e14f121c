/**
 * The registry's sessions in ordinal order, in all and per tenant. A page of `GET /v1/sessions` walked every
 * session the registry held to find its rows (another tenant's 10,000 ended sessions: ~3 ms a request, T40's
 * "Left"), and the live feed's snapshot of one tenant walked them too. Now a page is found by a binary search
 * on the ordinals of its scope's own list, and a scope is walked over its own sessions only.
 */
import type { Session } from './session.js';

/**
 * An entry of a list: the session and its ordinal when listed (a session registered again is listed again, later).
 * `session` is undefined once removed: the entry stays until the list is compacted, the session does not (the flood
 * drill's freed sessions, up to as many as the live ones with their ended state, were kept by their entries: the
 * server's heap after each round of 1,080 sessions grew 37.5 -> 46.7 MB over 10 rounds).
 */
interface Listed {
  session: Session | undefined;
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
    const listed = this.live.get(session);
    if (listed !== undefined) listed.session = undefined;
    const entry = { session, ordinal: session.ordinal };
    this.items.push(entry);
    this.live.set(session, entry);
  }

  delete(session: Session): void {
    const listed = this.live.get(session);
    if (listed === undefined) return;
    this.live.delete(session);
    listed.session = undefined;
    if (this.items.length > 2 * this.live.size + 16) this.items = this.items.filter((e) => e.session !== undefined);
  }

  /** Sessions its entries still reference (the live ones only). */
  get referenced(): number {
    let n = 0;
    for (const e of this.items) if (e.session !== undefined) n++;
    return n;
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
      const session = this.items[i]!.session;
      if (session !== undefined) yield session;
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

  /** Sessions its entries still reference, in all and per tenant (each a live one). */
  get referenced(): number {
    let n = this.all.referenced;
    for (const list of this.byTenant.values()) n += list.referenced;
    return n;
  }

  /** The sessions of `tenant` (every tenant's when undefined) with an ordinal above `after`, oldest first. */
  of(tenant: string | undefined, after = 0): Iterable<Session> {
    if (tenant === undefined) return this.all.after(after);
    return this.byTenant.get(tenant)?.after(after) ?? [];
  }
}
