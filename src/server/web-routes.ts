/**
 * The HTTP routes the web view reads (besides `/v1/live`, see live-feed.ts):
 * the sessions list, a session's steps and its path over the task's PTA, the
 * configured calibration, and the public `/web/info` that tells the page
 * whether to ask for a token. (An uploaded trajectory scored step by step,
 * `POST /v1/score/steps`, is a scoring route: scoring-routes.ts.)
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { alignToPtaInSteps } from '../core/signals/alignment.js';
import { runInSteps } from '../store/pta-text.js';
import { SteplensError } from '../errors.js';
import { readCalibration, readTradeoffSvg } from './calibration-view.js';
import { readableAnywhere, sendError, type RouteDeps, type TenantQuery } from './http-routes.js';
import { can, readTenant } from './principal.js';
import { viewJson } from './live-view.js';
import { sessionPage, sessionPageJson } from './session-list.js';
import { ALL_TENANTS, PageCursors } from './page-cursor.js';
import { StepViews } from './step-views.js';

export { VIEWS_PER_TENANT } from './step-views.js';

export interface WebRouteDeps extends RouteDeps {
  /** Whether bearer tokens are required. */
  auth: boolean;
  /** `serve --calibration DIR`: where `steplens calibrate --out-dir` wrote its files. */
  calibrationDir: string | undefined;
  /** The app's queue of step views, shared with the live feed's session views (step-views.ts). Default: one of its own. */
  views?: StepViews;
}

/** Rows of `GET /v1/sessions` by default, and at most. */
const SESSION_PAGE = 500;
const MAX_SESSION_PAGE = 1000;
/** Pages of `GET /v1/sessions` one tenant may have queued or being built. */
const PAGES_PER_TENANT = 4;

export function registerWebRoutes(app: FastifyInstance, deps: WebRouteDeps): void {
  const { registry, metrics, options } = deps;
  const fail = (reply: FastifyReply, error: unknown): FastifyReply => {
    if (error instanceof SteplensError) return sendError(reply, metrics, error.code, error.message);
    throw error;
  };

  app.get('/web/info', async () => ({ auth: deps.auth ? 'token' : 'open' }));

  const lists = new StepViews(PAGES_PER_TENANT, 'session pages');
  const cursors = new PageCursors();
  // One page of the sessions the token may see (its tenant's; an operator's: all, or one tenant's with ?tenant=), oldest first.
  app.get<{ Querystring: { tenant?: string; limit?: string; after?: string } }>('/v1/sessions', async (req, reply) => {
    const principal = deps.principal(req);
    const limit = req.query.limit === undefined ? SESSION_PAGE : Number(req.query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SESSION_PAGE) return sendError(reply, metrics, 'bad_message', `limit: expected an integer from 1 to ${MAX_SESSION_PAGE}`);
    const all = req.query.tenant === undefined && can(principal, 'operate');
    const tenant = readTenant(principal, req.query.tenant);
    // The cursor names no ordinal: ordinals count every tenant's sessions (page-cursor.ts, T77).
    const scope = all ? ALL_TENANTS : (tenant ?? '');
    const after = req.query.after === undefined ? 0 : cursors.decode(req.query.after, scope);
    if (after === undefined) return sendError(reply, metrics, 'bad_message', 'after: expected the `next` of the previous page');
    // Built in slices, one page at a time, a few of a tenant's at most (session-list.ts).
    const refused = lists.refusal(principal.tenant);
    if (refused !== undefined) return sendError(reply, metrics, 'quota_exceeded', refused);
    // From the index of its scope: another tenant's sessions are not walked (T48).
    const { rows, next } = sessionPage(registry.index.of(all ? undefined : tenant, after), { all, tenant, after, limit });
    const page = { rows, ...(next !== undefined ? { next: cursors.encode(Number(next), scope) } : {}) };
    const body = await lists.run(principal.tenant, () => sessionPageJson(page, options.config));
    return reply.type('application/json; charset=utf-8').send(body);
  });

  // A session's step view is built VIEW_ROWS_PER_TURN rows a turn, one view at a time, in the queue the live
  // feed's session views share; a tenant has at most VIEWS_PER_TENANT of them queued (step-views.ts).
  const views = deps.views ?? new StepViews();
  app.get<{ Params: { id: string } } & TenantQuery>('/v1/sessions/:id/steps', async (req, reply) => {
    let found;
    try {
      found = await readableAnywhere(deps, req, req.params.id);
    } catch (error) {
      return fail(reply, error);
    }
    if (!found) return sendError(reply, metrics, 'unknown_session', `no session ${req.params.id}`);
    const tenant = deps.principal(req).tenant;
    const refused = views.refusal(tenant);
    if (refused !== undefined) return sendError(reply, metrics, 'quota_exceeded', refused);
    // Its JSON too, a slice a turn (live-view.ts), in the same queue: the same bytes fastify's serializer wrote.
    const body = await views.run(tenant, () => viewJson(found.session, found.elsewhere));
    return reply.type('application/json; charset=utf-8').send(body);
  });

  app.get<{ Params: { id: string } } & TenantQuery>('/v1/sessions/:id/alignment', async (req, reply) => {
    try {
      const s = (await readableAnywhere(deps, req, req.params.id))?.session;
      if (!s) return sendError(reply, metrics, 'unknown_session', `no session ${req.params.id}`);
      // The PTA the session's tenant sees (its own first, reference-scope.ts), named by the task, not its store key.
      const seen = await deps.references.view(s.task, s.tenant);
      if (!seen) return sendError(reply, metrics, 'unknown_task', `no PTA for task ${s.task}`);
      // In steps, the loop turning every few ms: a large PTA and a long session cost seconds of scans (alignment.ts).
      return { ...(await runInSteps(alignToPtaInSteps(seen.pta, s.states(), options.config.tau))), task: s.task };
    } catch (error) {
      return fail(reply, error);
    }
  });

  app.get('/v1/calibration', async (_req, reply) => {
    try {
      // Not configured is an answer, not an error: the page says how to configure one.
      return deps.calibrationDir === undefined ? { configured: false } : await readCalibration(deps.calibrationDir);
    } catch (error) {
      return fail(reply, error);
    }
  });

  app.get('/v1/calibration/tradeoff.svg', async (_req, reply) => {
    try {
      const svg = await readTradeoffSvg(deps.calibrationDir);
      // Shown through <img>, where scripts never run; the CSP keeps them off if opened directly.
      return reply.type('image/svg+xml').headers({ 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'", 'cache-control': 'no-cache' }).send(svg);
    } catch (error) {
      return fail(reply, error);
    }
  });
}
