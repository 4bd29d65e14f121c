/**
 * `POST /v1/tickets`: a ticket for `GET /v1/live` or `/v1/stream`, the routes a browser cannot send a header
 * to (tickets.ts). For a session's feed the session is checked first, so the page learns at once that it is
 * unknown (an EventSource cannot read a 404); for any feed, whether the feed would refuse this principal now
 * (its tenant's viewer share, the server's viewers: 429 / 503), which an EventSource cannot read either.
 */
import type { FastifyInstance } from 'fastify';
import { parseBody } from '../protocol/parse.js';
import { ticketRequestSchema } from '../protocol/http-bodies.js';
import type { Authenticator } from './auth.js';
import type { LiveFeed } from './live-feed.js';
import { sendError, type RouteDeps } from './http-routes.js';
import { readTenant } from './principal.js';

export function registerTicketRoutes(app: FastifyInstance, deps: RouteDeps & { auth: Authenticator; live: Pick<LiveFeed, 'refusal'> }): void {
  const { metrics } = deps;
  app.post('/v1/tickets', async (req, reply) => {
    const body = parseBody(ticketRequestSchema, req.body);
    if (!body.ok) return sendError(reply, metrics, 'bad_message', body.error);
    const { route, session, tenant } = body.value;
    const principal = deps.principal(req);
    if (route !== '/v1/live' && (session !== undefined || tenant !== undefined)) return sendError(reply, metrics, 'bad_message', 'body.session: only a /v1/live ticket names a session');
    if (session !== undefined) {
      const t = readTenant(principal, tenant);
      if (t === undefined || deps.registry.find(t, session) === undefined) return sendError(reply, metrics, 'unknown_session', `no session ${session}`);
    }
    // The feed checks again when the ticket is used (a slot may go meanwhile); this answer is the one the page can read.
    const refused = route === '/v1/live' ? deps.live.refusal(principal) : undefined;
    if (refused !== undefined) return sendError(reply, metrics, refused.code, refused.message);
    return deps.auth.tickets.mint({ principal, route, ...(session !== undefined ? { session } : {}) });
  });
}
