/**
 * `GET /v1/forecast`: the forecast models the caller's sessions get, the versions put in force for them, and the
 * learner's attempts. In the `tenant` learning scope a tenant sees the shared models and its own, never another
 * tenant's (its models, versions or attempts: their reasons name its sources and counts); an operator sees the
 * shared ones, and a tenant's with `?tenant=NAME`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForecastDocs } from './forecast-doc.js';
import type { ForecastHolder } from './forecast-holder.js';
import type { ForecastLearner } from './forecast-learner.js';
import { sendError } from './http-routes.js';
import type { AppMetrics } from './metrics.js';
import { can, readTenant, type Principal } from './principal.js';

export interface ForecastRouteDeps {
  holder: ForecastHolder | undefined;
  learner: ForecastLearner | undefined;
  metrics: AppMetrics;
  principal: (req: FastifyRequest) => Principal;
}

export function registerForecastRoutes(app: FastifyInstance, deps: ForecastRouteDeps): void {
  const { holder, learner } = deps;
  // Kept per view until what it shows changes: a tenant's own can be megabytes (forecast-doc.ts, T46).
  const docs = holder !== undefined ? new ForecastDocs(holder, learner) : undefined;
  app.get<{ Querystring: { tenant?: string } }>('/v1/forecast', async (req, reply) => {
    if (docs === undefined) return { enabled: false };
    const principal = deps.principal(req);
    const tenant = readTenant(principal, req.query.tenant);
    if (tenant === undefined) return sendError(reply, deps.metrics, 'forbidden', "another tenant's forecast models need an operator's token");
    const operator = can(principal, 'operate');
    // An operator's own sessions train the shared models: without ?tenant= it reads those.
    const view = operator && (req.query.tenant === undefined || req.query.tenant === '') ? undefined : tenant;
    return reply.type('application/json; charset=utf-8').send(docs.bytes(view, operator));
  });
}
