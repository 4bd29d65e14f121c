/**
 * The used-ticket list per tenant: a replica remembers each taken ticket until it expires (single use), at most
 * `maxTaken` of them. One tenant taking tickets as fast as it could filled that list for every tenant's web view;
 * with two tenants or more a tenant now holds at most a quarter of it, and its slots come back as its tickets expire.
 */
import { describe, expect, it } from 'vitest';
import { Authenticator } from '../../src/server/auth.js';
import { TAKEN_MAX, Tickets } from '../../src/server/tickets.js';

const agent = (tenant: string) => ({ principal: { tenant, role: 'agent' as const }, route: '/v1/live' as const });

describe('used tickets per tenant', () => {
  it("refuses a tenant's ticket past its share, takes another tenant's, and frees the share as tickets expire", () => {
    const tickets = new Tickets('key', 1000, 10, 3);
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) expect(tickets.take(tickets.mint(agent('greedy'), t0).ticket, '/v1/live', t0 + 1)).toMatchObject({ route: '/v1/live' });
    expect(tickets.take(tickets.mint(agent('greedy'), t0).ticket, '/v1/live', t0 + 1)).toBe('too many tickets of tenant greedy in use (3): try again in a few seconds');
    expect(tickets.take(tickets.mint(agent('other'), t0).ticket, '/v1/live', t0 + 1)).toMatchObject({ principal: { tenant: 'other' } });
    // The first three expire (ttl 1 s): the tenant's share is free again.
    const later = t0 + 1500;
    expect(tickets.take(tickets.mint(agent('greedy'), later).ticket, '/v1/live', later + 1)).toMatchObject({ principal: { tenant: 'greedy' } });
  });

  it('gives a tenant a quarter of the list with two tenants or more, all of it with one', () => {
    const share = (auth: Authenticator): number => (auth.tickets as unknown as { perTenant: number }).perTenant;
    expect(share(new Authenticator([{ token: 'a', tenant: 'a' }]))).toBe(TAKEN_MAX);
    expect(
      share(
        new Authenticator([
          { token: 'a', tenant: 'a' },
          { token: 'b', tenant: 'b' },
        ]),
      ),
    ).toBe(TAKEN_MAX / 4);
  });
});
