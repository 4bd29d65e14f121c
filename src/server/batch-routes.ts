/**
 * Batch scoring over HTTP: `POST /v1/score/batch` (a GRPO group or a corpus
 * slice in one call) and `POST /get_reward`, OpenRLHF's remote reward model
 * contract, so a trainer pointed at steplens with `--remote_rm_url` works unchanged.
 */
import type { FastifyInstance } from 'fastify';
import type { TrajectoryReport } from '../core/scorer-api.js';
import { ERROR_CODES, SteplensError } from '../errors.js';
import { parseTrajectoryText } from '../formats/index.js';
import { getRewardRequestSchema, scoreBatchRequestSchema, type GetRewardResponse } from '../protocol/http-bodies.js';
import { taskIdSchema } from '../protocol/client-messages.js';
import { parseBody } from '../protocol/parse.js';
import { sendError, type RouteDeps } from './http-routes.js';
import { scoreParsedSteps, scoreRequest } from './score-request.js';
import { nonEmptySteps } from './trajectory.js';

interface RewardLabel {
  task: string;
  passed?: boolean;
}

/** `labels[i]`: a task id, or JSON text `{"task": ..., "passed": ...}`. */
function rewardLabel(raw: string | null | undefined, i: number): RewardLabel {
  const where = `labels[${i}]`;
  if (raw === null || raw === undefined || raw.trim() === '') {
    throw new SteplensError('bad_message', `${where}: required: the task id of query[${i}] (set OpenRLHF's --label_key to the task id column)`);
  }
  let task: unknown = raw.trim();
  let passed: unknown;
  if (raw.trim().startsWith('{')) {
    try {
      ({ task, passed } = JSON.parse(raw) as { task?: unknown; passed?: unknown });
    } catch (error) {
      throw new SteplensError('bad_message', `${where}: not a task id nor JSON: ${(error as Error).message}`);
    }
    if (passed !== undefined && typeof passed !== 'boolean') throw new SteplensError('bad_message', `${where}.passed: expected a boolean`);
  }
  const id = taskIdSchema.safeParse(task);
  if (!id.success) throw new SteplensError('bad_message', `${where}: task: ${id.error.issues[0]?.message ?? 'invalid'}`);
  return passed === undefined ? { task: id.data } : { task: id.data, passed: passed as boolean };
}

/** The rollout inside `query[i]`: what follows `prompts[i]` when the query starts with it. */
function rolloutText(query: string, prompt: string | undefined): string {
  return prompt !== undefined && prompt.length > 0 && query.startsWith(prompt) ? query.slice(prompt.length) : query;
}

const LOG_KEYS = ['score', 'struct', 'cov', 'coh', 'temp', 'steps', 'stopped', 'reference'] as const;

function logValues(r: TrajectoryReport): Record<(typeof LOG_KEYS)[number], number> {
  return {
    score: r.score.total,
    struct: r.score.struct ?? -1,
    cov: r.score.cov ?? -1,
    coh: r.score.coh,
    temp: r.score.temp,
    steps: r.steps,
    stopped: r.signals.some((s) => s.severity === 'stop') ? 1 : 0,
    reference: r.reference.kind === 'pta' ? 1 : 0,
  };
}

export function registerBatchRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { metrics } = deps;

  app.post('/v1/score/batch', async (req, reply) => {
    const body = parseBody(scoreBatchRequestSchema, req.body);
    if (!body.ok) return sendError(reply, metrics, 'bad_message', body.error);
    const results = [];
    for (const [i, item] of body.value.items.entries()) {
      try {
        results.push(await scoreRequest(deps, item, `items[${i}].`));
      } catch (error) {
        // One item's failure, whatever it is, is that item's answer: the others are still scored.
        if (!(error instanceof SteplensError)) req.log.error({ err: error, item: i }, 'batch item failed');
        const code = error instanceof SteplensError ? error.code : 'internal';
        metrics.refusals.inc({ code });
        results.push({ error: { code, message: error instanceof SteplensError ? error.message : `items[${i}]: ${ERROR_CODES.internal.summary}` } });
      }
    }
    return { results };
  });

  app.post('/get_reward', async (req, reply) => {
    const body = parseBody(getRewardRequestSchema, req.body);
    if (!body.ok) return sendError(reply, metrics, 'bad_message', body.error);
    const { query, prompts, labels } = body.value;
    for (const [name, list] of [['prompts', prompts], ['labels', labels]] as const) {
      if (list !== undefined && list.length !== query.length) {
        return sendError(reply, metrics, 'bad_message', `${name}: ${list.length} entries for ${query.length} queries`);
      }
    }
    const out: GetRewardResponse = { rewards: [], scores: [], extra_logs: Object.fromEntries(LOG_KEYS.map((k) => [k, []])) };
    try {
      for (const [i, q] of query.entries()) {
        const label = rewardLabel(labels?.[i], i);
        const parsed = parseTrajectoryText(rolloutText(q, prompts?.[i]), 'auto', `query[${i}]`);
        if (!parsed.ok) throw new SteplensError(parsed.error.code, parsed.error.message);
        const steps = nonEmptySteps(parsed.value, `query[${i}]`);
        const report = await scoreParsedSteps(deps, label, steps, `query[${i}].`);
        out.rewards.push(report.score.total / 100);
        out.scores.push(report.score.total / 100);
        for (const [k, v] of Object.entries(logValues(report))) out.extra_logs[k]!.push(v);
      }
    } catch (error) {
      if (error instanceof SteplensError) return sendError(reply, metrics, error.code, error.message);
      throw error;
    }
    return out;
  });
}
