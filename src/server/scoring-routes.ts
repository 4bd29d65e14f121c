/**
 * The HTTP routes that score: `POST /v1/score`, `/v1/score/batch`, `/get_reward` (OpenRLHF's remote reward
 * model: `--remote_rm_url` works unchanged), `POST /v1/score/steps` (the web view's upload: every step),
 * `POST /v1/rank` (rank-route.ts) and `POST /v1/tasks/:task/references`. Their bodies are kept as
 * raw bytes (JSON is parsed where the job runs: a worker thread, see score-pool.ts), so a large body is never
 * parsed nor scored on the event loop the streaming sessions share.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Gauge } from 'prom-client';
import { taskIdSchema } from '../protocol/client-messages.js';
import type { AddReferenceResponse } from '../protocol/http-bodies.js';
import { collectBody } from './raw-body.js';
import { BodyReceipts } from './body-receipts.js';
import { discardBody, isPortedBody, type PortedBody } from './ported-body.js';
import { SteplensError } from '../errors.js';
import { sendError, type RouteDeps } from './http-routes.js';
import { registerRankRoute } from './rank-route.js';
import type { BatchValue, JobKind, JobResult } from './scoring-jobs.js';
import { statesFromJsonSlices } from '../store/pta-text.js';

/** The body as the bytes a job takes (a copy when it is a view into a larger buffer, so only its bytes travel), or its channel. */
function bodyBytes(req: FastifyRequest): Uint8Array | PortedBody {
  const body = req.body;
  if (isPortedBody(body)) return body;
  if (!(body instanceof Uint8Array)) return new Uint8Array(0);
  return body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : new Uint8Array(body);
}

export function registerScoringRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { metrics, pool, options } = deps;
  const run = (kind: JobKind, req: FastifyRequest, task?: string): Promise<JobResult> => {
    // The models the caller's sessions would use: a tenant's own learned ones before the shared ones.
    // A rank job's may carry the end-of-run model (`"rankModel": "end"`); no other job reads it.
    const forecast = options.forecast?.jobForecast(deps.principal(req).tenant, kind === 'rank');
    return pool.run({
      kind,
      body: bodyBytes(req),
      policy: options.policy,
      config: options.config,
      maxSteps: options.limits.maxStepsPerSession,
      ...(forecast !== undefined ? { forecast } : {}),
      ...(task !== undefined ? { task } : {}),
      tenant: deps.principal(req).tenant,
    });
  };
  const failed = (req: FastifyRequest, reply: FastifyReply, result: Extract<JobResult, { ok: false }>): FastifyReply => {
    if (result.detail !== undefined) req.log.error({ detail: result.detail, route: req.url }, 'scoring failed');
    return sendError(reply, metrics, result.code, result.message);
  };

  // Bodies on their way in, bounded as the queue they go to is (T61): a tenant's share, and room kept for others.
  const { maxBodyBytes } = options.limits;
  const receipts = new BodyReceipts({ total: 4 * maxBodyBytes, ...(options.tenants > 1 ? { perTenant: 2 * maxBodyBytes, reservedForNewTenants: maxBodyBytes } : {}) });
  new Gauge({
    name: 'steplens_receiving_body_bytes',
    help: 'Bytes of scoring request bodies being received (declared lengths), every tenant together.',
    registers: [metrics.registry],
    collect() {
      this.set(receipts.bytes);
    },
  });

  void app.register(async (scoped) => {
    // Their own body limit (the server's is SMALL_BODY_BYTES): read as raw bytes, never parsed on the event loop.
    scoped.addHook('onRoute', (route) => {
      route.bodyLimit = options.limits.maxBodyBytes;
    });
    scoped.removeContentTypeParser('application/json');
    scoped.addContentTypeParser('application/json', (req: FastifyRequest, payload: IncomingMessage) => collectBody(payload, maxBodyBytes, receipts.hold(deps.principal(req).tenant), pool.threaded));

    for (const [route, kind] of [
      ['/v1/score', 'score'],
      ['/get_reward', 'reward'],
    ] as const) {
      scoped.post(route, async (req, reply) => {
        const result = await run(kind, req);
        return result.ok ? reply.send(result.value) : failed(req, reply, result);
      });
    }

    // The step view comes back as JSON text: sent as is, never serialised on this thread.
    scoped.post('/v1/score/steps', async (req, reply) => {
      const result = await run('steps', req);
      return result.ok ? reply.type('application/json').send(result.value) : failed(req, reply, result);
    });

    registerRankRoute(scoped, deps, run, failed);

    scoped.post('/v1/score/batch', async (req, reply) => {
      const result = await run('batch', req);
      if (!result.ok) return failed(req, reply, result);
      // The answer comes back as JSON text (scoring-jobs.ts): sent as is, never read nor serialised on this thread.
      const { text, refusals } = result.value as BatchValue;
      for (const r of refusals) {
        metrics.refusals.inc({ code: r.code });
        if (r.detail !== undefined) req.log.error({ detail: r.detail, item: r.item }, 'batch item failed');
      }
      return reply.type('application/json; charset=utf-8').send(text);
    });

    scoped.post<{ Params: { task: string } }>('/v1/tasks/:task/references', async (req, reply) => {
      const task = taskIdSchema.safeParse(req.params.task);
      if (!task.success) {
        discardBody(bodyBytes(req)); // a ported body's chunks, never sent to a worker
        return sendError(reply, metrics, 'bad_message', `task: ${task.error.issues[0]?.message ?? 'invalid'}`);
      }
      const result = await run('states', req, task.data);
      if (!result.ok) return failed(req, reply, result);
      const states = await statesFromJsonSlices(result.value as string[]);
      const principal = deps.principal(req);
      try {
        const { pta, scope } = await deps.learning.contribute(principal, 'reference', (c) => deps.references.add(principal, task.data, states, c));
        req.log.info({ tenant: principal.tenant, task: task.data, scope, version: pta.version, steps: states.length }, 'reference added');
        // Which PTA grew is said where there are two kinds (tenant reference scope).
        const answer: AddReferenceResponse = {
          task: task.data,
          version: pta.version,
          references: pta.references.length,
          steps: states.length,
          ...(deps.references.scope === 'tenant' ? { scope } : {}),
        };
        return await reply.code(201).send(answer);
      } catch (error) {
        if (error instanceof SteplensError) return sendError(reply, metrics, error.code, error.message);
        throw error;
      }
    });
  });
}
