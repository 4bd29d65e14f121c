/** The HTTP routes of protocol v1 (`/v1/...`, health, readiness, metrics) but scoring (scoring-routes.ts, registered beside these by buildApp). */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Analyzers } from '../core/ports.js';
import { ERROR_CODES, SteplensError, type ErrorCode } from '../errors.js';
import type { SessionStatus } from '../protocol/http-bodies.js';
import { taskIdSchema } from '../protocol/client-messages.js';
import { ptaJsonChunks } from '../store/pta-text.js';
import type { ReferenceStorePort } from '../store/store-port.js';
import type { DurableSessions } from './durable-sessions.js';
import type { AppMetrics } from './metrics.js';
import type { ResolvedOptions } from './options.js';
import type { SessionRegistry } from './session-registry.js';
import type { ScorePool } from './score-pool.js';

export interface RouteDeps {
  store: ReferenceStorePort;
  registry: SessionRegistry;
  /** With Redis: sessions held by other replicas are read from the journal. */
  durable?: DurableSessions;
  analyzers: Analyzers;
  metrics: AppMetrics;
  /** Where HTTP scoring runs (worker threads). */
  pool: ScorePool;
  options: ResolvedOptions;
  /** Readiness: undefined when ready, else why not (shutting down; the store unreachable, slow, out of memory or space). */
  readiness: () => Promise<string | undefined>;
  /** The token digest a request speaks for (undefined while auth is off). */
  principal: (req: FastifyRequest) => string | undefined;
}

/** Sends `{ error: { code, message } }` with the code's status and counts the refusal. */
export function sendError(reply: FastifyReply, metrics: AppMetrics, code: ErrorCode, message: string): FastifyReply {
  metrics.refusals.inc({ code });
  return reply.code(ERROR_CODES[code].status).send({ error: { code, message } });
}

export function registerHttpRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { store, registry, metrics } = deps;
  const fail = (reply: FastifyReply, error: unknown): FastifyReply => {
    if (error instanceof SteplensError) return sendError(reply, metrics, error.code, error.message);
    throw error;
  };
  const taskParam = (reply: FastifyReply, raw: string): string | undefined => {
    const t = taskIdSchema.safeParse(raw);
    if (t.success) return t.data;
    sendError(reply, metrics, 'bad_message', `task: ${t.error.issues[0]?.message ?? 'invalid'}`);
    return undefined;
  };

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    const why = await deps.readiness();
    return why === undefined ? { status: 'ready' } : reply.code(503).send({ status: 'not ready', error: { code: 'unavailable', message: why } });
  });
  app.get('/metrics', async (_req, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()));

  app.get<{ Params: { id: string } }>('/v1/sessions/:id', async (req, reply) => {
    const principal = deps.principal(req);
    let s = registry.visible(req.params.id, principal);
    let elsewhere: 'open' | 'detached' | undefined;
    // With Redis, a copy no connection here holds may have moved to another replica: read the durable one.
    if (deps.durable && (!s || (!s.ended && s.connection === undefined))) {
      try {
        // Another token's session stays unknown (view checks the principal before reading any step).
        const view = await deps.durable.view(req.params.id, principal);
        // This replica's copy stays the answer while this replica holds the lease.
        if (view && !(s && view.owner === deps.durable.journal.owner)) {
          s = view.session;
          elsewhere = view.owner !== undefined ? 'open' : 'detached';
        }
      } catch (error) {
        if (!s) return fail(reply, error);
      }
    }
    if (!s) return sendError(reply, metrics, 'unknown_session', `no session ${req.params.id}`);
    const report = s.final ?? s.report();
    const status: SessionStatus = {
      session: s.id,
      task: s.task,
      format: s.format,
      ...(s.agent !== undefined ? { agent: s.agent } : {}),
      ...(s.model !== undefined ? { model: s.model } : {}),
      ...(s.policy !== undefined ? { policy: { selected: s.policy.selected, shadow: s.policy.shadow } } : {}),
      state: s.ended ? 'ended' : (elsewhere ?? (s.connection === undefined ? 'detached' : 'open')),
      steps: s.length,
      lastSeq: s.lastSeq,
      score: report.score,
      tier: report.tier,
      stages: { ...s.stages },
      signals: [...s.signals],
      reference: s.reference,
      ...(s.passed !== undefined ? { passed: s.passed } : {}),
      ...(report.pPass !== undefined ? { pPass: report.pPass } : {}),
      ...(s.forecastVersion !== undefined ? { forecastVersion: s.forecastVersion } : {}),
    };
    return status;
  });

  app.get('/v1/tasks', async () => ({ tasks: await store.list() }));

  app.get<{ Params: { task: string } }>('/v1/tasks/:task/pta', async (req, reply) => {
    const task = taskParam(reply, req.params.task);
    if (task === undefined) return reply;
    try {
      const pta = await store.get(task);
      if (!pta) return sendError(reply, metrics, 'unknown_task', `no PTA for task ${task}`);
      // In slices: a PTA may be megabytes of JSON, one stringify would hold every other client meanwhile.
      return reply.type('application/json').send(Readable.from(ptaJsonChunks(pta)));
    } catch (error) {
      return fail(reply, error);
    }
  });
}
