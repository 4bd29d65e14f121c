/**
 * Short-lived, single-purpose tickets for the two routes a browser cannot send a header to: `GET /v1/live`
 * (EventSource) and `/v1/stream` (the WebSocket API). An authenticated `POST /v1/tickets` mints one; it is
 * bound to the principal, the route and (optionally) one session, expires in seconds and is taken once. The
 * token itself never goes into a URL (URLs reach proxies' access logs).
 *
 * A ticket is signed (HMAC-SHA256) with a key derived from the configured tokens, so every replica that
 * shares the token list accepts it without shared state; each replica takes a ticket once (it remembers the
 * ticket until it expires, a tenant's share of that list at most).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Principal, Role } from './principal.js';

export const TICKET_ROUTES = ['/v1/live', '/v1/stream'] as const;
export type TicketRoute = (typeof TICKET_ROUTES)[number];

export interface TicketClaims {
  principal: Principal;
  route: TicketRoute;
  /** When set, the ticket opens this session's feed only. */
  session?: string;
}

interface Payload {
  t: string;
  r: Role;
  u: TicketRoute;
  s?: string;
  /** Expiry, ms since the epoch. */
  x: number;
  n: string;
}

const b64 = (b: Buffer | string): string => Buffer.from(b).toString('base64url');

/** Tickets a replica remembers as taken until they expire, all tenants together. */
export const TAKEN_MAX = 100_000;

export class Tickets {
  private readonly key: Buffer;
  /** Tickets taken here, until they expire (a ticket is good once): expiry and tenant by nonce. */
  private readonly taken = new Map<string, { expiry: number; tenant: string }>();
  /** Tickets of each tenant in `taken`. */
  private readonly byTenant = new Map<string, number>();

  /**
   * `keyMaterial`: what every replica shares and no client knows (the token digests and their grants). `perTenant`:
   * of `maxTaken`, the tickets one tenant may hold taken (default all; a quarter with two tenants or more, auth.ts):
   * one tenant using tickets as fast as it can must not fill the list for every other tenant's web view.
   */
  constructor(
    keyMaterial: string,
    readonly ttlMs: number,
    private readonly maxTaken = TAKEN_MAX,
    private readonly perTenant = maxTaken,
  ) {
    this.key = createHash('sha256').update(`steplens ticket key\n${keyMaterial}`).digest();
  }

  mint(claims: TicketClaims, now = Date.now()): { ticket: string; expiresAt: number } {
    const payload: Payload = {
      t: claims.principal.tenant,
      r: claims.principal.role,
      u: claims.route,
      ...(claims.session !== undefined ? { s: claims.session } : {}),
      x: now + this.ttlMs,
      n: randomBytes(12).toString('base64url'),
    };
    const body = b64(JSON.stringify(payload));
    return { ticket: `${body}.${this.sign(body)}`, expiresAt: payload.x };
  }

  /** The claims of a good ticket for `route` (taking it), or why it is refused. */
  take(ticket: string, route: string, now = Date.now()): TicketClaims | string {
    const dot = ticket.indexOf('.');
    if (dot < 0 || ticket.length > 2048) return 'malformed ticket';
    const body = ticket.slice(0, dot);
    const mac = Buffer.from(ticket.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.sign(body), 'base64url');
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return 'invalid ticket';
    const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
    if (p.u !== route) return `ticket is for ${p.u}, not ${route}`;
    if (p.x <= now) return 'ticket expired';
    this.prune(now);
    if (this.taken.has(p.n)) return 'ticket already used';
    if (this.taken.size >= this.maxTaken) return 'too many tickets in use: try again in a few seconds';
    const mine = this.byTenant.get(p.t) ?? 0;
    if (mine >= this.perTenant) return `too many tickets of tenant ${p.t} in use (${this.perTenant}): try again in a few seconds`;
    this.taken.set(p.n, { expiry: p.x, tenant: p.t });
    this.byTenant.set(p.t, mine + 1);
    return { principal: { tenant: p.t, role: p.r }, route: p.u, ...(p.s !== undefined ? { session: p.s } : {}) };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }

  private prune(now: number): void {
    for (const [nonce, t] of this.taken) {
      // Taken in about the order they were minted (each lives ttlMs): the first live one ends the sweep; a
      // ticket taken out of order lingers at most ttlMs longer, still bounded by maxTaken.
      if (t.expiry > now) break;
      this.taken.delete(nonce);
      const left = (this.byTenant.get(t.tenant) ?? 1) - 1;
      if (left > 0) this.byTenant.set(t.tenant, left);
      else this.byTenant.delete(t.tenant);
    }
  }
}
