/**
 * WebSocket streams per tenant. The TCP caps (connection-caps.ts) bound an address and the server, not a tenant:
 * a tenant's agents on enough machines could hold every connection of a shared server, idle, with no session open
 * (its sessions are bounded by `sessionsPerTenant`, not its sockets). A tenant that is not an operator holds at
 * most `perTenant` streams; past it the upgrade is answered 429 `quota_exceeded` (docs/reliability.md, T36).
 *
 * A stream is counted from its upgrade request, before the handshake, until its socket closes: upgrades of one
 * tenant sent at once cannot all pass the check before any is counted, and a handshake that fails frees its slot.
 */
import type { ServerLimits } from './server-limits.js';
import type { Principal } from './principal.js';
import { UpgradeRate } from './upgrade-rate.js';

/** What a stream is counted on: its socket, which says when it closes (the upgrade's socket is the stream's). */
export interface ClosingSocket {
  once(event: 'close', listener: () => void): unknown;
}

export class TenantStreams {
  private readonly held = new Map<string, number>();

  /** `perTenant`: streams a tenant that is not an operator may hold (0: no bound); `rate`: how fast it may open them (T112). */
  constructor(
    private readonly perTenant: number,
    private readonly rate?: UpgradeRate,
  ) {}

  /** Why `principal` may not open another stream (the quota message), or undefined when it may (its upgrade then counted in `rate`). */
  refusal(principal: Principal): string | undefined {
    if (this.perTenant === 0 || principal.role === 'operator' || this.count(principal.tenant) < this.perTenant) return this.rate?.take(principal);
    return `tenant '${principal.tenant}' holds ${this.perTenant} WebSocket connections, its limit (connectionsPerTenant)`;
  }

  /** Counts a stream of `principal`'s tenant until `socket` closes. */
  hold(principal: Principal, socket: ClosingSocket): void {
    const tenant = principal.tenant;
    this.held.set(tenant, this.count(tenant) + 1);
    socket.once('close', () => {
      const left = this.count(tenant) - 1;
      if (left > 0) this.held.set(tenant, left);
      else this.held.delete(tenant);
    });
  }

  /** Streams `tenant` holds. */
  count(tenant: string): number {
    return this.held.get(tenant) ?? 0;
  }
}

/** The streams of `limits`: how many a tenant holds, how fast it opens them. */
export function tenantStreams(limits: ServerLimits): TenantStreams {
  return new TenantStreams(limits.connectionsPerTenant, new UpgradeRate(limits.streamUpgradesPerSecond, limits.streamUpgradeBurst));
}
