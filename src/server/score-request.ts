/** Scoring one HTTP score request (`POST /v1/score`, each item of a batch, each `/get_reward` query). */
import type { Analyzers } from '../core/ports.js';
import type { ScoringConfig } from '../core/config.js';
import { inTrainedRuns } from '../core/forecast/fingerprint.js';
import { selectModel, type EndModel, type ForecastModel } from '../core/forecast/model.js';
import { resolvePolicy, type Policy, type PolicyInput } from '../core/policy.js';
import type { Reference, TemporalPrior, TrajectoryReport } from '../core/scorer-api.js';
import { analyzersFor } from '../core/scope-free.js';
import type { Step } from '../core/types.js';
import { SteplensError } from '../errors.js';
import type { ScoreRequest } from '../protocol/http-bodies.js';
import { scoreTrajectory, trajectoryDocumentInSlices } from './trajectory.js';

/** What HTTP scoring needs: the references (from the store, or asked of the main thread by a worker), analyzers, the server's policy, config and step limit. */
export interface ScoringDeps {
  reference(task: string): Promise<Reference>;
  prior(): Promise<TemporalPrior>;
  analyzers: Analyzers;
  policy: Policy;
  config: ScoringConfig;
  /** Steps one trajectory may have (the stream's per-session limit). */
  maxSteps: number;
  /** The server's forecast model in force, if any (adds `pPass`). */
  forecast?: JobForecast;
}

/** The forecast models in force and their version, as a job carries them to a worker (the run's source picks one). */
export interface JobForecast {
  models: ForecastModel[];
  version: number;
  /** Fingerprints of the runs the file's models were trained on, sorted (its `trainedRuns`; absent: it lists none): a run among them gets `pPassInSample`. */
  trainedRuns?: readonly string[];
  /** The file's end-of-run model, carried by rank jobs only (`"rankModel": "end"`; ~80 KB of tables a score job would copy for nothing). */
  end?: EndModel;
}

/** `pPassInSample` for a report with a pPass, when the forecast lists its training runs (else nothing: it cannot tell). */
export function inSampleField(forecast: JobForecast | undefined, steps: readonly Step[], pPass: number | undefined): { pPassInSample?: boolean } {
  if (pPass === undefined || forecast?.trainedRuns === undefined || steps.length === 0) return {};
  return { pPassInSample: inTrainedRuns(forecast.trainedRuns, steps) };
}

/** What scoring already parsed steps needs besides them; `agent` and `model` pick the forecast model. */
export interface StepsRequest {
  task: string;
  passed?: boolean;
  policy?: PolicyInput;
  agent?: string | undefined;
  model?: string | undefined;
}

/** Refuses a trajectory longer than a session may be (`too_large`, naming `where`). */
export function checkLength(steps: readonly Step[], maxSteps: number, where: string): void {
  if (steps.length > maxSteps) throw new SteplensError('too_large', `${where}: ${steps.length} steps exceed the limit of ${maxSteps} steps`);
}

/** Scores `steps` against the task's reference with the server's config and policy (overridden by `policy`). */
export async function scoreParsedSteps(deps: ScoringDeps, req: StepsRequest, steps: readonly Step[], where = 'body.'): Promise<TrajectoryReport> {
  const policy = resolvePolicy(req.policy, deps.policy);
  if (!policy.ok) throw new SteplensError('bad_message', `${where}policy: ${policy.error}`);
  const reference = await deps.reference(req.task);
  const forecast = deps.forecast !== undefined ? selectModel(deps.forecast, req.agent, req.model) : undefined;
  return scoreTrajectory(steps, {
    reference,
    // Against the prior no part of the report reads a state's scope: the files viewed are not parsed to find it (core/scope-free.ts).
    analyzers: analyzersFor(reference, deps.analyzers),
    policy: policy.value,
    config: deps.config,
    ...(forecast !== undefined ? { forecast, forecastVersion: deps.forecast!.version } : {}),
    ...(req.passed !== undefined ? { passed: req.passed } : {}),
  });
}

/** Parses and scores one request; errors are SteplensErrors whose message starts with `where` (`body.`, `items[3].`). */
export async function scoreRequest(deps: ScoringDeps, req: ScoreRequest, where = 'body.'): Promise<ScoreResponse> {
  const { steps, meta, diagnostics } = await trajectoryDocumentInSlices(req.trajectory, req.format, `${where}trajectory`, req.task);
  checkLength(steps, deps.maxSteps, `${where}trajectory`);
  const scored = await scoreParsedSteps(deps, { ...req, agent: req.agent ?? meta.agent, model: req.model ?? meta.model }, steps, where);
  // Here, not in scoreParsedSteps: `/get_reward` answers no such field, and the fingerprint costs about a fifth of scoring a run.
  const report = { ...scored, ...inSampleField(deps.forecast, steps, scored.pPass) };
  // Records the parser could not read were left out of the score: said, as the CLI says them on stderr.
  if (diagnostics.length === 0) return report;
  const skipped = diagnostics.slice(0, MAX_SKIPPED_NAMED).map((d) => ({ at: d.at, message: d.message }));
  return { ...report, skipped, ...(diagnostics.length > MAX_SKIPPED_NAMED ? { skippedCount: diagnostics.length } : {}) };
}

/** Skipped records named in a score response at most (a broken log may have thousands). */
const MAX_SKIPPED_NAMED = 100;

/** The body of `POST /v1/score`: the report, and the records of the log that could not be read (proto: http.score-response). */
export type ScoreResponse = TrajectoryReport & { skipped?: Array<{ at: string; message: string }>; skippedCount?: number };
