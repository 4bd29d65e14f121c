/**
 * The step messages open sessions hold in this server's memory: per tenant (`stepBytesPerTenant`, T37) and all
 * together (`stepBytesTotal`, T43). A session keeps what its steps carry (commands, observations, file texts) until
 * it ends; without a bound one tenant's agents, at 1,024 open sessions of 5,000 steps of up to 1 MiB each, could grow
 * the heap until the process aborts and every tenant's sessions go with it, and several tenants each within their
 * share (or the one user of a single-tenant server) could do the same together. Counted per session as accepted and
 * given back when the session ends (its scorer and texts are released then: ended sessions have their own bounds)
 * or its copy is dropped.
 */
import type { WireErrorCode } from '../protocol/server-messages.js';

/** What is counted of a session: its tenant, and the bytes it holds (kept on the session: no lookup a step). */
interface Held {
  readonly tenant: string;
  heldStepBytes: number;
}

export class TenantStepBytes {
  private readonly byTenant = new Map<string, number>();
  private all = 0;

  /** `limit`: bytes per tenant; `total`: bytes of every tenant together; 0 for no bound (nothing is counted when both are 0). */
  constructor(
    readonly limit: number,
    readonly total = 0,
  ) {}

  /** Bytes `tenant`'s open sessions hold now. */
  of(tenant: string): number {
    return this.byTenant.get(tenant) ?? 0;
  }

  /** Bytes every open session holds now. */
  get sum(): number {
    return this.all;
  }

  /** Why a step of `bytes` for `session` is refused (the server or the tenant would pass its bound), or undefined. */
  refusal(session: Held, bytes: number): { code: WireErrorCode; message: string } | undefined {
    const kept = 'The steps accepted before are kept: send it again once sessions have ended';
    if (this.total > 0 && this.all + bytes > this.total) {
      return {
        code: 'overloaded',
        message: `the server's open sessions hold ${this.all} bytes of steps; this one (${bytes} bytes) would take them past stepBytesTotal (${this.total} bytes). ${kept}`,
      };
    }
    if (this.limit <= 0) return undefined;
    const now = this.of(session.tenant);
    if (now + bytes <= this.limit) return undefined;
    return {
      code: 'quota_exceeded',
      message: `tenant ${session.tenant}'s open sessions hold ${now} bytes of steps; this one (${bytes} bytes) would take them past stepBytesPerTenant (${this.limit} bytes). ${kept}`,
    };
  }

  /** Counts an accepted step of `bytes` for `session`. */
  add(session: Held, bytes: number): void {
    if (this.limit <= 0 && this.total <= 0) return;
    session.heldStepBytes += bytes;
    this.byTenant.set(session.tenant, this.of(session.tenant) + bytes);
    this.all += bytes;
  }

  /** Gives back what `session` held (it ended, or its copy was dropped); once, later calls do nothing. */
  release(session: Held): void {
    const bytes = session.heldStepBytes;
    if (bytes === 0) return;
    session.heldStepBytes = 0;
    this.all -= bytes;
    const left = this.of(session.tenant) - bytes;
    if (left > 0) this.byTenant.set(session.tenant, left);
    else this.byTenant.delete(session.tenant);
  }
}
