/** Scoring one HTTP score request (`POST /v1/score`, each item of a batch, each `/get_reward` query). */
import { resolvePolicy } from '../core/policy.js';
import type { TrajectoryReport } from '../core/scorer-api.js';
import type { Step } from '../core/types.js';
import { SteplensError } from '../errors.js';
import type { PolicyInput } from '../core/policy.js';
import type { ScoreRequest } from '../protocol/http-bodies.js';
import type { RouteDeps } from './http-routes.js';
import { scoreTrajectory, trajectorySteps } from './trajectory.js';

/** What scoring already parsed steps needs besides them. */
export interface StepsRequest {
  task: string;
  passed?: boolean;
  policy?: PolicyInput;
}

/** Scores `steps` against the task's reference with the server's config and policy (overridden by `policy`). */
export async function scoreParsedSteps(deps: RouteDeps, req: StepsRequest, steps: readonly Step[], where = 'body.'): Promise<TrajectoryReport> {
  const policy = resolvePolicy(req.policy, deps.options.policy);
  if (!policy.ok) throw new SteplensError('bad_message', `${where}policy: ${policy.error}`);
  const reference = await deps.store.reference(req.task);
  const forecast = deps.options.forecast?.modelFor(undefined, undefined);
  return scoreTrajectory(steps, {
    reference, analyzers: deps.analyzers, policy: policy.value, config: deps.options.config,
    ...(forecast !== undefined ? { forecast: forecast.model, forecastVersion: forecast.version } : {}),
    ...(req.passed !== undefined ? { passed: req.passed } : {}),
  });
}

/** Parses and scores one request; errors are SteplensErrors whose message starts with `where` (`body.`, `items[3].`). */
export async function scoreRequest(deps: RouteDeps, req: ScoreRequest, where = 'body.'): Promise<TrajectoryReport> {
  return scoreParsedSteps(deps, req, trajectorySteps(req.trajectory, req.format, `${where}trajectory`), where);
}
