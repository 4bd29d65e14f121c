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
import type { LearningGuard } from './learning-guard.js';
import type { ReferenceScope, ScopedReferences } from './reference-scope.js';
import type { Pta } from '../core/scorer-api.js';
import { can, readTenant, type Principal } from './principal.js';
import { lookupSession, type FoundSession } from './session-lookup.js';
import { sessionNames, sessionState } from './session-view.js';

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
  /** Whom a request speaks for (its token's tenant and role; the local operator while auth is off). */
  principal: (req: FastifyRequest) => Principal;
  /** True when the request carries a valid token (always while auth is off). */
  identified: (req: FastifyRequest) => boolean;
  /** Who may grow which PTA, how much. */
  learning: LearningGuard;
  /** Which PTAs each tenant sees, is scored against and grows (reference-scope.ts). */
  references: ScopedReferences;
}

/** `?tenant=` of a read route (operators read other tenants' sessions with it). */
export type TenantQuery = { Querystring: { tenant?: string } };

/**
 * The session a read names, as `principal` may see it: its own tenant's, or with `?tenant=` (operators) another's;
 * undefined for a session of a tenant it may not see, exactly as for one that never existed. With Redis, wherever it
 * is (session-lookup.ts): the web view's step and alignment reads behind a balancer find a session another replica
 * holds, as `GET /v1/sessions/:id` does. Throws the journal's error only when there is no local copy to answer with.
 */
export async function readableAnywhere(deps: Pick<RouteDeps, 'registry' | 'principal' | 'durable'>, req: FastifyRequest<TenantQuery>, id: string): Promise<FoundSession | undefined> {
  const tenant = readTenant(deps.principal(req), req.query.tenant);
  if (tenant === undefined) return undefined;
  return lookupSession(deps.registry, deps.durable, tenant, id);
}

/** Sends `{ error: { code, message } }` with the code's status and counts the refusal. */
export function sendError(reply: FastifyReply, metrics: AppMetrics, code: ErrorCode, message: string): FastifyReply {
  metrics.refusals.inc({ code });
  return reply.code(ERROR_CODES[code].status).send({ error: { code, message } });
}

export function registerHttpRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { registry, metrics } = deps;
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
  app.get('/readyz', async (req, reply) => {
    const why = await deps.readiness();
    if (why === undefined) return { status: 'ready' };
    const message = deps.identified(req) ? why : 'not ready (the reason is given to a request with a token)';
    return reply.code(503).send({ status: 'not ready', error: { code: 'unavailable', message } });
  });
  app.get('/metrics', async (_req, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()));

  app.get<{ Params: { id: string } } & TenantQuery>('/v1/sessions/:id', async (req, reply) => {
    const tenant = readTenant(deps.principal(req), req.query.tenant);
    if (tenant === undefined) return sendError(reply, metrics, 'unknown_session', `no session ${req.params.id}`);
    let found;
    try {
      found = await lookupSession(registry, deps.durable, tenant, req.params.id);
    } catch (error) {
      return fail(reply, error);
    }
    if (!found) return sendError(reply, metrics, 'unknown_session', `no session ${req.params.id}`);
    const { session: s, elsewhere } = found;
    const report = s.final ?? s.headline();
    const status: SessionStatus = {
      ...sessionNames(s),
      ...(s.policy !== undefined ? { policy: { selected: s.policy.selected, shadow: s.policy.shadow } } : {}),
      state: s.ended ? 'ended' : (elsewhere ?? sessionState(s)),
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

  // The shared tasks and the token's tenant's own PTAs (an operator's: every tenant's, or one tenant's with ?tenant=).
  app.get<TenantQuery>('/v1/tasks', async (req) => {
    const principal = deps.principal(req);
    const all = req.query.tenant === undefined && can(principal, 'operate');
    return { tasks: await deps.references.list(readTenant(principal, req.query.tenant), all) };
  });

  // The PTA the tenant's sessions of the task would use (?scope=tenant|shared: that one); operators name a tenant with ?tenant=.
  app.get<{ Params: { task: string }; Querystring: { tenant?: string; scope?: string } }>('/v1/tasks/:task/pta', async (req, reply) => {
    const task = taskParam(reply, req.params.task);
    if (task === undefined) return reply;
    const pick = req.query.scope;
    if (pick !== undefined && pick !== 'tenant' && pick !== 'shared') return sendError(reply, metrics, 'bad_message', 'scope: expected tenant or shared');
    const principal = deps.principal(req);
    // Another tenant's own PTA is as unknown as one never built.
    const tenant = readTenant(principal, req.query.tenant);
    try {
      const seen = tenant === undefined ? undefined : await deps.references.view(task, tenant, pick);
      if (!seen) return sendError(reply, metrics, 'unknown_task', `no PTA for task ${task}`);
      const { pta } = seen;
      // Who added each reference is for operators: other tenants see the PTA without the names.
      const references = can(principal, 'operate') ? pta.references : pta.references.map(({ by: _by, ...r }) => r);
      // Named by its task (an own PTA's store key is no reader's business), and whose it is where there are two kinds.
      const shown: Pta & { scope?: ReferenceScope } = { ...pta, task, references, ...(deps.references.scope === 'tenant' ? { scope: seen.scope } : {}) };
      // In slices: a PTA may be megabytes of JSON, one stringify would hold every other client meanwhile.
      return reply.type('application/json').send(Readable.from(ptaJsonChunks(shown)));
    } catch (error) {
      return fail(reply, error);
    }
  });
}
