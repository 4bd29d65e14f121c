/**
 * What each route needs of a token's role (principal.ts). Every route not listed needs `use` (an agent's);
 * reads are then filtered by tenant in the routes themselves. `test/server/tenant-isolation.test.ts` walks
 * every registered route with a second tenant's token, so a new route is checked too.
 */
import type { FastifyRequest } from 'fastify';
import type { Capability } from './principal.js';

/** `any`: every valid token (a scraper's included). */
export type Access = Capability | 'any';

const NEEDS: Record<string, Access> = {
  '/readyz': 'any',
  '/metrics': 'metrics',
  '/v1/policies/pin': 'operate',
  '/v1/policies/freeze': 'operate',
};

/** What the route of `req` needs; an unknown route only a valid token (it then answers 404 `unknown_route`). */
export function accessOf(req: FastifyRequest): Access {
  const url = req.routeOptions.url;
  return url === undefined ? 'any' : (NEEDS[url] ?? 'use');
}

export const ROLE_NEEDED: Record<Capability, string> = {
  use: 'an agent or operator token',
  operate: "an operator's token",
  metrics: "an operator's or a metrics token",
};
