/** `GET /v1/policies` and the operator's `POST /v1/policies/pin` and `/freeze` (proto/README.md, "Policies"). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseBody } from '../protocol/parse.js';
import { freezeRequestSchema, pinRequestSchema } from '../protocol/policy-state.js';
import { sendError } from './http-routes.js';
import type { AppMetrics } from './metrics.js';
import type { PolicyManager } from './policy-manager.js';
import { PolicyDocs } from './policy-docs.js';
import { pairStatus } from './policy-status.js';
import type { Principal } from './principal.js';

/** Pinning and freezing are an operator's (the hook refuses other roles with `forbidden`, see access.ts); the answer is the pair as the operator's own tenant sees it. */
export function registerPolicyRoutes(app: FastifyInstance, deps: { policies: PolicyManager; metrics: AppMetrics; principal: (req: FastifyRequest) => Principal }): PolicyDocs {
  const { policies, metrics } = deps;
  // Built once per change and shared by every request until the next (policy-docs.ts, T39).
  const docs = new PolicyDocs(policies);
  app.get('/v1/policies', async (req, reply) => reply.type('application/json; charset=utf-8').send(await docs.bytes(deps.principal(req))));

  app.post('/v1/policies/pin', async (req, reply) => {
    const body = parseBody(pinRequestSchema, req.body);
    if (!body.ok) return sendError(reply, metrics, 'bad_message', body.error);
    const { agent, model } = body.value;
    const r = policies.pin(agent, model, body.value.policy);
    if (!r.ok) return sendError(reply, metrics, r.error.code, r.error.message);
    await policies.flush();
    return pairStatus(policies, policies.view(deps.principal(req).tenant, agent, model));
  });

  app.post('/v1/policies/freeze', async (req, reply) => {
    const body = parseBody(freezeRequestSchema, req.body);
    if (!body.ok) return sendError(reply, metrics, 'bad_message', body.error);
    const { agent, model } = body.value;
    const r = policies.freeze(agent, model, body.value.frozen);
    if (!r.ok) return sendError(reply, metrics, r.error.code, r.error.message);
    await policies.flush();
    return pairStatus(policies, policies.view(deps.principal(req).tenant, agent, model));
  });
  return docs;
}
