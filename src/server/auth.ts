/**
 * Who a request speaks for: `Authorization: Bearer TOKEN` (checked in constant time against the configured
 * tokens), or on `/v1/live` and `/v1/stream` only, a `?ticket=` minted for that route (tickets.ts). A token in
 * the URL (`?token=`) is refused: URLs end up in proxies' access logs.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { LOCAL_PRINCIPAL, type Principal } from './principal.js';
import { TAKEN_MAX, TICKET_ROUTES, Tickets, type TicketClaims } from './tickets.js';
import { principalOf, type TokenGrant } from './token-grants.js';

export { loadTokens } from './token-grants.js';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** Whom a request speaks for, or why it is refused. */
export type Identity = { ok: true; principal: Principal; ticket?: TicketClaims } | { ok: false; message: string };

export class Authenticator {
  private readonly digests: Buffer[];
  private readonly principals: Principal[];
  readonly tickets: Tickets;
  private readonly known = new WeakMap<FastifyRequest, Identity>();

  constructor(grants: readonly TokenGrant[], ticketTtlMs = 30_000) {
    this.digests = grants.map((g) => digest(g.token));
    this.principals = grants.map(principalOf);
    const material = this.digests.map((d, i) => `${d.toString('hex')} ${this.principals[i]!.tenant} ${this.principals[i]!.role}`).sort();
    // With two tenants or more, one tenant holds at most a quarter of the used-ticket list (tickets.ts).
    const tenants = new Set(this.principals.map((p) => p.tenant)).size;
    this.tickets = new Tickets(material.join('\n'), ticketTtlMs, TAKEN_MAX, tenants > 1 ? Math.ceil(TAKEN_MAX / 4) : TAKEN_MAX);
  }

  get enabled(): boolean {
    return this.digests.length > 0;
  }

  /** How many tenants the tokens name (1 with auth off). */
  get tenants(): number {
    return this.enabled ? new Set(this.principals.map((p) => p.tenant)).size : 1;
  }

  /** Identifies a request once (the onRequest hook); later calls return the same answer. */
  identify(request: FastifyRequest): Identity {
    let id = this.known.get(request);
    if (id === undefined) {
      id = this.resolve(request);
      this.known.set(request, id);
    }
    return id;
  }

  /** The principal of a request the hook let through (the local operator while auth is off). */
  principal(request: FastifyRequest): Principal {
    const id = this.identify(request);
    if (!id.ok) throw new Error('principal of a refused request');
    return id.principal;
  }

  private resolve(request: FastifyRequest): Identity {
    if (!this.enabled) return { ok: true, principal: LOCAL_PRINCIPAL };
    const query = queryOf(request.url);
    // Refused even beside a good header: the URL, token included, has already reached the proxies' logs.
    if (query.has('token')) return { ok: false, message: 'a token in the URL is not accepted: send Authorization: Bearer TOKEN (or, where no header can be sent, a ticket from POST /v1/tickets)' };
    const header = request.headers.authorization;
    if (header !== undefined) {
      const token = bearer(header);
      const p = token === undefined ? undefined : this.lookup(token);
      return p ? { ok: true, principal: p } : { ok: false, message: 'missing or wrong bearer token' };
    }
    const route = request.url.split('?')[0] ?? '';
    const ticket = query.get('ticket');
    if (ticket !== null && (TICKET_ROUTES as readonly string[]).includes(route)) {
      const claims = this.tickets.take(ticket, route);
      return typeof claims === 'string' ? { ok: false, message: claims } : { ok: true, principal: claims.principal, ticket: claims };
    }
    return { ok: false, message: 'missing or wrong bearer token' };
  }

  private lookup(token: string): Principal | undefined {
    const d = digest(token);
    let found: Principal | undefined;
    // Every digest is compared, so the time taken does not depend on which token matched.
    for (const [i, known] of this.digests.entries()) if (timingSafeEqual(known, d)) found ??= this.principals[i];
    return found;
  }
}

function bearer(header: string): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
}

function queryOf(url: string): URLSearchParams {
  const q = url.indexOf('?');
  return new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
}
