/**
 * The `onRequest` hook every request passes first: another site's page refused (site-check.ts), a malformed upgrade
 * refused (upgrade-check.ts), then the token and its role checked (liveness, readiness and the web view's public files
 * are open), a tenant's stream quota held for an upgrade, and all but readiness and metrics refused while shutting
 * down. A refused upgrade gets its HTTP error on the raw socket; any other refusal the catalogue's JSON shape.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import type { ErrorCode } from '../errors.js';
import { accessOf, ROLE_NEEDED } from './access.js';
import type { Authenticator } from './auth.js';
import { endWithError, refusedBeforeRoute } from './http-errors.js';
import { sendError } from './http-routes.js';
import type { AppMetrics } from './metrics.js';
import { can } from './principal.js';
import type { SiteCheck } from './site-check.js';
import type { TenantStreams } from './tenant-streams.js';
import { isUpgrade, STREAM_ROUTE, upgradeRefusal } from './upgrade-check.js';
import { isPublicWebPath } from './web-assets.js';

export interface GateDeps {
  sites: SiteCheck;
  auth: Authenticator;
  streams: TenantStreams;
  metrics: AppMetrics;
  log: Logger;
  /** False once the server is shutting down. */
  accepting: () => boolean;
}

/** A refused upgrade: the HTTP error answer written on the raw socket, which is then closed (no socket, no keep-alive). */
function refuseUpgrade(socket: Socket, reply: FastifyReply, code: ErrorCode, message: string): void {
  reply.hijack();
  endWithError(socket, code, message);
}

export function installRequestGate(app: FastifyInstance, deps: GateDeps): void {
  const { sites, auth, streams, metrics, log } = deps;
  app.addHook('onRequest', async (req, reply) => {
    // Pipelined behind a request that closed its connection (T47): nobody to answer, nothing to run.
    if (req.raw.socket.destroyed) return reply.hijack();
    const route = req.url.split('?')[0];
    // Another site's page (a foreign Origin on the stream, a DNS-rebinding Host) is refused before anything else.
    const offSite = sites.refusal(req.headers, isUpgrade(req.headers));
    if (offSite !== undefined) {
      if (offSite.first) log.warn({ code: offSite.code, host: req.headers.host, origin: req.headers.origin }, `refused: ${offSite.message}`);
      if (!isUpgrade(req.headers)) return sendError(refusedBeforeRoute(req, reply), metrics, offSite.code, offSite.message);
      metrics.refusals.inc({ code: offSite.code });
      return refuseUpgrade(req.raw.socket, reply, offSite.code, offSite.message);
    }
    const upgradeRefused = isUpgrade(req.headers) ? upgradeRefusal(req.method, req.routeOptions.url, req.headers) : undefined;
    if (upgradeRefused !== undefined) {
      metrics.refusals.inc({ code: 'bad_message' });
      return refuseUpgrade(req.raw.socket, reply, 'bad_message', upgradeRefused);
    }
    // Liveness and readiness are open: balancers and Kubernetes probes send no token (the reason a replica is not
    // ready, which may name the Redis endpoint, is only given to a request with one).
    if (route === '/healthz' || route === '/readyz' || ((req.method === 'GET' || req.method === 'HEAD') && isPublicWebPath(route ?? ''))) return;
    // While shutting down only readiness and metrics are still answered.
    const closing = !deps.accepting() && route !== '/readyz' && route !== '/metrics';
    const id = auth.identify(req);
    const needs = accessOf(req);
    let refused: ErrorCode | undefined;
    let message = 'server shutting down';
    if (!id.ok) [refused, message] = ['unauthorized', id.message];
    else if (needs !== 'any' && !can(id.principal, needs)) [refused, message] = ['forbidden', `${req.method} ${route ?? ''} needs ${ROLE_NEEDED[needs]}`];
    else if (closing) refused = 'overloaded';
    if (refused === undefined && id.ok && route === STREAM_ROUTE && isUpgrade(req.headers)) {
      const overQuota = streams.refusal(id.principal);
      if (overQuota !== undefined) [refused, message] = ['quota_exceeded', overQuota];
      else streams.hold(id.principal, req.raw.socket);
    }
    if (refused === undefined) return;
    if (isUpgrade(req.headers)) {
      metrics.refusals.inc({ code: refused });
      return refuseUpgrade(req.raw.socket, reply, refused, message);
    }
    // Its connection closed once answered, its body awaited briefly (http-errors.ts, T53).
    return sendError(refusedBeforeRoute(req, reply), metrics, refused, message);
  });
}
