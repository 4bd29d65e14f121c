/**
 * The HTTP routes the web view reads (besides `/v1/live`, see live-feed.ts):
 * the sessions list, a session's steps and its path over the task's PTA, an
 * uploaded trajectory scored step by step, the configured calibration, and
 * the public `/web/info` that tells the page whether to ask for a token.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { alignToPta } from '../core/signals/alignment.js';
import { resolvePolicy } from '../core/policy.js';
import { scoreSteps } from '../core/scorer.js';
import { SteplensError } from '../errors.js';
import { parseDocument } from '../formats/index.js';
import { scoreRequestSchema } from '../protocol/http-bodies.js';
import { parseBody } from '../protocol/parse.js';
import type { ScoreStepsResponse } from '../protocol/view-bodies.js';
import { readCalibration, readTradeoffSvg } from './calibration-view.js';
import { sendError, type RouteDeps } from './http-routes.js';
import { sessionSummary, sessionView, trajectoryView } from './session-view.js';
import { nonEmptySteps } from './trajectory.js';

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

  app.post('/v1/score/steps', async (req, reply) => {
    const body = parseBody(scoreRequestSchema, req.body);
    if (!body.ok) return sendError(reply, metrics, 'bad_message', body.error);
    const { task, format, trajectory, passed } = body.value;
    try {
      const policy = resolvePolicy(body.value.policy, options.policy);
      if (!policy.ok) throw new SteplensError('bad_message', `body.policy: ${policy.error}`);
      const parsed = parseDocument(trajectory, format ?? 'auto');
      if (!parsed.ok) throw new SteplensError(parsed.error.code, `body.trajectory: ${parsed.error.message}`);
      const steps = nonEmptySteps(parsed.value, 'body.trajectory').map((s, t) => ({ ...s, t }));
      const reference = await store.reference(task);
      // As POST /v1/score scores it (scoreParsedSteps), with every step's result kept.
      const forecast = options.forecast?.modelFor(body.value.agent ?? parsed.value.meta.agent, body.value.model ?? parsed.value.meta.model);
      const scored = scoreSteps(steps, {
        reference,
        analyzers: deps.analyzers,
        policy: policy.value,
        config: options.config,
        ...(passed !== undefined ? { passed } : {}),
        ...(forecast !== undefined ? { forecast: forecast.model } : {}),
      });
      const report = forecast !== undefined ? { ...scored.report, forecastVersion: forecast.version } : scored.report;
      const pta = await store.get(task);
      const out: ScoreStepsResponse = {
        ...trajectoryView({ ...parsed.value.meta, task, format: parsed.value.format }, steps, scored.results, report),
        ...(pta
          ? {
              alignment: alignToPta(
                pta,
                scored.results.map((r) => r.state),
                options.config.tau,
              ),
            }
          : {}),
      };
      return out;
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
