/**
 * `POST /v1/score/steps` (the web view's upload and paste) as a scoring job: parse, score every step, the
 * step view and the path over the task's PTA, in a worker thread like `POST /v1/score` and with its limits
 * (80,000 steps scored on the main thread stalled every client 18 s in issue 25's trial). The answer
 * leaves the worker as JSON text, so the main thread only sends it.
 */
import { selectModel } from '../core/forecast/model.js';
import { alignToPta } from '../core/signals/alignment.js';
import { resolvePolicy } from '../core/policy.js';
import { createScorer, type CreateScorerOptions } from '../core/scorer.js';
import type { StepResult, TrajectoryReport } from '../core/scorer-api.js';
import type { Step } from '../core/types.js';
import type { Pta } from '../core/scorer-api.js';
import { SteplensError } from '../errors.js';
import type { ScoreRequest } from '../protocol/http-bodies.js';
import type { ScoreStepsResponse } from '../protocol/view-bodies.js';
import { checkLength, inSampleField, type ScoringDeps } from './score-request.js';
import { trajectoryView } from './session-view.js';
import { trajectoryDocumentInSlices } from './trajectory.js';
import { pushInSlices } from '../job-slices.js';

/** What the steps job needs besides the scoring deps: the task's PTA even below `minReferences` (the path is drawn over any PTA). */
export type StepsDeps = ScoringDeps & { pta: (task: string) => Promise<Pta | undefined> };

/** The step view of one uploaded trajectory, as JSON text. */
export async function scoreStepsView(deps: StepsDeps, req: ScoreRequest): Promise<string> {
  const policy = resolvePolicy(req.policy, deps.policy);
  if (!policy.ok) throw new SteplensError('bad_message', `body.policy: ${policy.error}`);
  const parsed = await trajectoryDocumentInSlices(req.trajectory, req.format, 'body.trajectory', req.task);
  const steps = parsed.steps.map((s, t) => ({ ...s, t }));
  checkLength(steps, deps.maxSteps, 'body.trajectory');
  const reference = await deps.reference(req.task);
  // As POST /v1/score scores it (scoreParsedSteps), with every step's result kept; the run's source picks the forecast model.
  const forecast = deps.forecast !== undefined ? selectModel(deps.forecast, req.agent ?? parsed.meta.agent, req.model ?? parsed.meta.model) : undefined;
  const scored = await scoreStepsInSlices(steps, {
    reference,
    analyzers: deps.analyzers,
    policy: policy.value,
    config: deps.config,
    ...(req.passed !== undefined ? { passed: req.passed } : {}),
    ...(forecast !== undefined ? { forecast } : {}),
  });
  const report = forecast !== undefined ? { ...scored.report, forecastVersion: deps.forecast!.version, ...inSampleField(deps.forecast, parsed.steps, scored.report.pPass) } : scored.report;
  // The reference's PTA when scored against one (the same object the store holds), else ask: a PTA below minReferences is still drawn.
  const pta = reference.kind === 'pta' ? reference.pta : await deps.pta(req.task);
  const out: ScoreStepsResponse = {
    ...trajectoryView({ ...parsed.meta, task: req.task, format: parsed.format }, steps, scored.results, report),
    // Named by the task: a tenant's own PTA is held under a store key (reference-scope.ts).
    ...(pta
      ? {
          alignment: {
            ...alignToPta(
              pta,
              scored.results.map((r) => r.state),
              deps.config.tau,
            ),
            task: req.task,
          },
        }
      : {}),
  };
  return JSON.stringify(out);
}

/** core's `scoreSteps` (what an online client would have received), a slice of steps at a time (job-slices.ts). */
async function scoreStepsInSlices(steps: readonly Step[], options: CreateScorerOptions & { passed?: boolean }): Promise<{ results: StepResult[]; report: TrajectoryReport }> {
  const scorer = createScorer(options);
  scorer.setOutcome(options.passed);
  const results: StepResult[] = [];
  await pushInSlices(scorer, steps, (r) => results.push(r));
  return { results, report: scorer.report(options.passed) };
}
