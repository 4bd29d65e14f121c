/** `GET /v1/policies` and the operator's `POST /v1/policies/pin` and `/freeze` (proto/README.md, "Policies"). */
import type { FastifyInstance } from 'fastify';
import { parseBody } from '../protocol/parse.js';
import { freezeRequestSchema, pinRequestSchema } from '../protocol/policy-state.js';
import { sendError } from './http-routes.js';
import type { AppMetrics } from './metrics.js';
import type { PolicyManager } from './policy-manager.js';
import { pairStatus, policiesStatus } from './policy-status.js';

export function registerPolicyRoutes(app: FastifyInstance, deps: { policies: PolicyManager; metrics: AppMetrics }): void {
  const { policies, metrics } = deps;
  app.get('/v1/policies', async () => policiesStatus(policies));

  app.post('/v1/policies/pin', async (req, reply) => {
    const body = parseBody(pinRequestSchema, req.body);
    if (!body.ok) return sendError(reply, metrics, 'bad_message', body.error);
    const r = policies.pin(body.value.agent, body.value.model, body.value.policy);
    if (!r.ok) return sendError(reply, metrics, 'bad_message', `policy: ${r.error}`);
    await policies.flush();
    return pairStatus(policies, r.value);
  });

  app.post('/v1/policies/freeze', async (req, reply) => {
    const body = parseBody(freezeRequestSchema, req.body);
    if (!body.ok) return sendError(reply, metrics, 'bad_message', body.error);
    const r = policies.freeze(body.value.agent, body.value.model, body.value.frozen);
    if (!r.ok) return sendError(reply, metrics, 'overloaded', r.error);
    await policies.flush();
    return pairStatus(policies, r.value);
  });
}
