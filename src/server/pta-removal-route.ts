/**
 * `DELETE /v1/tasks/:task/pta`: a tenant removes its own PTA of a task (a wrong reference, or room under its
 * `ptaBytesPerTenant`), an operator any tenant's (`?tenant=NAME`) or the shared one (`?scope=shared`). Which PTA
 * and who may: reference-scope.ts (`ScopedReferences.remove`). Another tenant's own PTA answers 404 exactly as a
 * PTA nobody holds. Sessions already scoring against the removed PTA keep the PTA they hold; new ones fall back
 * (own, then shared, then the prior) as reference-scope.ts says.
 */
import type { FastifyInstance } from 'fastify';
import { formatIssues } from '../core/config.js';
import { SteplensError } from '../errors.js';
import { taskIdSchema } from '../protocol/client-messages.js';
import { removePtaQuerySchema, type RemovePtaResponse } from '../protocol/http-bodies.js';
import { sendError, type RouteDeps } from './http-routes.js';

export function registerPtaRemovalRoute(app: FastifyInstance, deps: RouteDeps): void {
  const { metrics } = deps;
  app.delete<{ Params: { task: string }; Querystring: unknown }>('/v1/tasks/:task/pta', async (req, reply) => {
    const task = taskIdSchema.safeParse(req.params.task);
    if (!task.success) return sendError(reply, metrics, 'bad_message', `task: ${task.error.issues[0]?.message ?? 'invalid'}`);
    const query = removePtaQuerySchema.safeParse(req.query);
    if (!query.success) return sendError(reply, metrics, 'bad_message', formatIssues(query.error));
    const { scope, tenant } = query.data;
    const named = tenant !== undefined && tenant !== '';
    if (named && (scope === 'shared' || deps.references.scope === 'shared')) {
      return sendError(reply, metrics, 'bad_message', "tenant: the shared PTA is no tenant's (name a tenant to remove its own PTA, in the tenant reference scope)");
    }
    const principal = deps.principal(req);
    try {
      const removed = await deps.references.remove(principal, task.data, scope, tenant);
      if (removed === undefined) return sendError(reply, metrics, 'unknown_task', `no PTA for task ${task.data}`);
      req.log.info({ tenant: principal.tenant, task: task.data, scope: removed.scope, ...(named ? { owner: tenant } : {}), version: removed.version }, 'PTA removed');
      const answer: RemovePtaResponse = { task: task.data, scope: removed.scope, version: removed.version };
      return await reply.send(answer);
    } catch (error) {
      if (error instanceof SteplensError) return sendError(reply, metrics, error.code, error.message);
      throw error;
    }
  });
}
