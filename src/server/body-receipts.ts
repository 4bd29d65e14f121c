/**
 * The bytes of scoring bodies still arriving, per tenant and in all (T61). A scoring route reads its body into
 * memory before its job is queued (raw-body.ts; the queue itself is bounded in score-pool.ts), and nothing bounded
 * the bodies on their way in: one agent token's 24 connections, each announcing 64 MiB and sending all of it but
 * the last byte, held 1.6 GB of the server's memory for as long as `requestTimeoutMs` (120 s); the 256 connections
 * one address may open would hold 16 GiB. Now bounded as the queue is: a tenant's bodies being received hold at
 * most `perTenant` bytes (429 `quota_exceeded`, its own refusal), all of them `total` (503 `overloaded`), and the
 * last `reservedForNewTenants` of it go only to a tenant receiving none. One body is always taken when its tenant
 * (or, for the total, everyone) has none arriving: a body is at most `maxBodyBytes` anyway.
 */
import { SteplensError } from '../errors.js';

export interface ReceiptLimits {
  /** Bytes of bodies being received in all. */
  total: number;
  /** Of those, the bytes of one tenant's (absent: `total`). */
  perTenant?: number;
  /** Of `total`, the bytes kept for tenants with no body arriving (default 0). */
  reservedForNewTenants?: number;
  /** What is counted, as refusals name it (default `request bodies being received`). */
  what?: string;
}

/** One body's claim on the budget: more taken as it arrives, all given back once it is read, refused or cut. */
export interface BodyHold {
  /** Takes `bytes` more, or says why not (nothing taken then). */
  take(bytes: number): SteplensError | undefined;
  /** Gives back all it took (again: nothing). */
  release(): void;
}

export class BodyReceipts {
  private all = 0;
  private readonly byTenant = new Map<string, number>();

  constructor(private readonly limits: ReceiptLimits) {}

  /** Bytes of bodies being received, in all. */
  get bytes(): number {
    return this.all;
  }

  /** A hold for one body of `tenant`. */
  hold(tenant: string): BodyHold {
    let held = 0;
    return {
      take: (bytes) => {
        const refused = this.refusal(tenant, held, bytes);
        if (refused !== undefined) return refused;
        held += bytes;
        this.all += bytes;
        this.byTenant.set(tenant, (this.byTenant.get(tenant) ?? 0) + bytes);
        return undefined;
      },
      release: () => {
        if (held === 0) return;
        this.all -= held;
        // An entry at 0 stays: tenants are the token file's (bounded), and a stream's every message takes and gives
        // back, so a delete and a new entry each time cost ~0.2 µs a message on the stream path (T62).
        this.byTenant.set(tenant, (this.byTenant.get(tenant) ?? held) - held);
        held = 0;
      },
    };
  }

  /** Why `tenant`'s body, holding `held` already, may not take `bytes` more; undefined when it may. */
  private refusal(tenant: string, held: number, bytes: number): SteplensError | undefined {
    const mine = this.byTenant.get(tenant) ?? 0;
    const what = this.limits.what ?? 'request bodies being received';
    // The first bytes of a tenant's only body are always taken (the same rule as the queue's).
    const others = mine - held;
    const share = this.limits.perTenant;
    if (share !== undefined && mine + bytes > share && others > 0) {
      return new SteplensError('quota_exceeded', `this tenant's ${what} hold ${mine} bytes, its share is ${share} bytes: send them one after another`);
    }
    if (this.all + bytes > this.limits.total && this.all - held > 0) {
      return new SteplensError('overloaded', `${what} hold ${this.all} bytes: try again later`);
    }
    const reserved = this.limits.reservedForNewTenants ?? 0;
    if (others > 0 && reserved > 0 && this.all + bytes > this.limits.total - reserved) {
      return new SteplensError('overloaded', `${what} hold ${this.all} bytes, and the last ${reserved} bytes are kept for tenants with none arriving: try again later`);
    }
    return undefined;
  }
}
