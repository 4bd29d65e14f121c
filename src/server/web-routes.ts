/**
 * The HTTP routes the web view reads (besides `/v1/live`, see live-feed.ts):
 * the sessions list, a session's steps and its path over the task's PTA, the
 * configured calibration, and the public `/web/info` that tells the page
 * whether to ask for a token. (An uploaded trajectory scored step by step,
 * `POST /v1/score/steps`, is a scoring route: scoring-routes.ts.)
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { alignToPta } from '../core/signals/alignment.js';
import { SteplensError } from '../errors.js';
import { readCalibration, readTradeoffSvg } from './calibration-view.js';
import { sendError, type RouteDeps } from './http-routes.js';
import { sessionSummary, sessionView } from './session-view.js';

export interface WebRouteDeps extends RouteDeps {
  /** Whether bearer tokens are required. */
  auth: boolean;
  /** `serve --calibration DIR`: where `steplens calibrate --out-dir` wrote its files. */
  calibrationDir: string | undefined;
}

export function registerWebRoutes(app: FastifyInstance, deps: WebRouteDeps): void {
  const { registry, metrics, store, options } = deps;
  const fail = (reply: FastifyReply, error: unknown): FastifyReply => {
    if (error instanceof SteplensError) return sendError(reply, metrics, error.code, error.message);
    throw error;
  };

  app.get('/web/info', async () => ({ auth: deps.auth ? 'token' : 'open' }));

  app.get('/v1/sessions', async () => ({
    sessions: [...registry.sessions.values()].map((s) => sessionSummary(s, options.config)),
  }));

  app.get<{ Params: { id: string } }>('/v1/sessions/:id/steps', async (req, reply) => {
    const s = registry.get(req.params.id);
    return s ? sessionView(s) : sendError(reply, metrics, 'unknown_session', `no session ${req.params.id}`);
  });

  app.get<{ Params: { id: string } }>('/v1/sessions/:id/alignment', async (req, reply) => {
    const s = registry.get(req.params.id);
    if (!s) return sendError(reply, metrics, 'unknown_session', `no session ${req.params.id}`);
    try {
      const pta = await store.get(s.task);
      if (!pta) return sendError(reply, metrics, 'unknown_task', `no PTA for task ${s.task}`);
      return alignToPta(pta, s.states(), options.config.tau);
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
