/**
 * What this replica last heard Redis count for each tenant's journals (every append and read answers with it),
 * plus the bytes of its own appends still in flight. The server checks a step against it before scoring
 * (a step the script refuses after it was scored costs its session a rebuild from the journal); the bound
 * itself is the scripts' (journal-bytes.ts). One entry per tenant the replica served: the token file's.
 */
export class TenantBytes {
  private readonly known = new Map<string, number>();
  private readonly inFlight = new Map<string, number>();

  /** An append of `bytes` was queued. */
  sent(tenant: string, bytes: number): void {
    this.inFlight.set(tenant, (this.inFlight.get(tenant) ?? 0) + bytes);
  }

  /** ... and answered: `total` is the tenant's bytes Redis counted after it (undefined when the write failed). */
  answered(tenant: string, bytes: number, total: number | undefined): void {
    const left = (this.inFlight.get(tenant) ?? 0) - bytes;
    if (left > 0) this.inFlight.set(tenant, left);
    else this.inFlight.delete(tenant);
    if (total !== undefined && Number.isFinite(total)) this.known.set(tenant, total);
  }

  /** Redis counted `total` just now: returns it with this replica's appends in flight. */
  read(tenant: string, total: number): number {
    this.known.set(tenant, total);
    return total + (this.inFlight.get(tenant) ?? 0);
  }

  /** The tenant's bytes as last heard, with the appends in flight; undefined before Redis answered any. */
  estimate(tenant: string): number | undefined {
    const known = this.known.get(tenant);
    return known === undefined ? undefined : known + (this.inFlight.get(tenant) ?? 0);
  }
}
