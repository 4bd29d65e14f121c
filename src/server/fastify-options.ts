/**
 * The fastify instance `buildApp` wires: the body limit of the bodies fastify parses itself, Node's HTTP timeouts,
 * the router's parameter length, the catalogue's error shapes for fastify's own errors, no route schemas.
 */
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { SMALL_BODY_BYTES, frameworkErrorOptions } from './http-errors.js';
import type { AppMetrics } from './metrics.js';
import { NO_ROUTE_SCHEMAS } from './no-route-schemas.js';
import type { ServerLimits } from './server-limits.js';

/** Node's HTTP timeouts: headers and whole requests, checked every second (Node's default checks every 30 s). */
export function httpTimeouts(limits: ServerLimits): { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number } {
  const headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return { headersTimeout, requestTimeout: limits.requestTimeoutMs, connectionsCheckingInterval: Math.max(50, Math.min(1000, headersTimeout / 4)) };
}

export function createFastify(limits: ServerLimits, metrics: AppMetrics, log: Logger): FastifyInstance {
  // Typed as fastify's base logger so `app` is the plain `FastifyInstance` the route modules take.
  const loggerInstance: FastifyBaseLogger = log;
  return Fastify({
    loggerInstance,
    // Bodies fastify itself parses (tickets, pins, freezes: a few hundred bytes) are JSON.parse'd on the event loop:
    // a tenant's 60 MB body to POST /v1/tickets held every client 3.5-5.6 s. The scoring routes read theirs as raw
    // bytes for a worker, up to maxBodyBytes (scoring-routes.ts).
    bodyLimit: Math.min(SMALL_BODY_BYTES, limits.maxBodyBytes),
    // Half-sent requests are not held for ever (nor, without auth, at all past these): 408-like, in the catalogue's shape.
    requestTimeout: limits.requestTimeoutMs,
    http: httpTimeouts(limits),
    logController: new LogController({ disableRequestLogging: true }),
    // A path parameter may hold any valid task id (256 characters, percent-escaped: up to 2,304) or session id.
    routerOptions: { maxParamLength: 4096 },
    ...frameworkErrorOptions(metrics),
    schemaController: NO_ROUTE_SCHEMAS,
  });
}
