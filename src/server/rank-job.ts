/**
 * The scoring-worker part of `POST /v1/rank` (docs/rank.md): parses the body, checks that the
 * trajectories are of one task, and scores each one the way `POST /v1/score` does (same reference
 * store, limits and forecast model). Session runs are named, not scored: sessions live on the main
 * thread, which reads them (rank-route.ts) and orders the whole group.
 */
import { locationItems } from '../core/rank/consensus.js';
import { createFinalPatchTracker, type FinalPatchTracker } from '../core/rank/final-patch.js';
import { netClass, type PatchClass } from '../core/rank/patch-class.js';
import { groupTask, type AskedBasis, type RankInput } from '../core/rank/rank.js';
import { createScorer } from '../core/scorer.js';
import type { Reference } from '../core/scorer-api.js';
import type { Step } from '../core/types.js';
import { selectModel } from '../core/forecast/model.js';
import { SteplensError } from '../errors.js';
import type { RankRequest } from '../protocol/rank-bodies.js';
import { checkLength, inSampleField, type ScoringDeps } from './score-request.js';
import { trajectoryDocumentMaybeEmpty } from './trajectory.js';
import { pushInSlices } from '../job-slices.js';
import { numberedSteps } from '../core/step-numbers.js';
import { analyzersFor } from '../core/scope-free.js';
import { createEndScorer, type RankModel } from '../core/forecast/end-model.js';
import { rankEndModel } from './rank-end.js';

/** One run as the worker hands it back: scored, or a session for the main thread to read. */
export type RankJobRun = ({ index: number } & RankInput) | { index: number; id: string; session: string };

export interface RankJobValue {
  task?: string;
  consensus: boolean;
  basis?: AskedBasis;
  mixedTasks: boolean;
  /** The body's rankModel: `end` scored the trajectories by the end-of-run model (rank-end.ts). */
  rankModel?: RankModel;
  runs: RankJobRun[];
}

/** How a client asks for a mixed group (named in the `mixed_tasks` error). */
export const MIXED_TASKS_HINT = '"mixedTasks": true';

export async function rankJob(deps: ScoringDeps, body: RankRequest): Promise<RankJobValue> {
  type Parsed =
    | { index: number; id: string; session: string }
    | { index: number; id: string; task: string | undefined; given: string | undefined; steps: Step[]; agent: string | undefined; model: string | undefined };
  // Refused before any run is read: the model asked for is not the server's.
  const endModel = rankEndModel(body.rankModel, deps.forecast);
  const parsed = body.runs.map((run, index): Parsed => {
    if (run.session !== undefined) return { index, id: run.id ?? run.session, session: run.session };
    const where = `runs[${index}].trajectory`;
    const doc = trajectoryDocumentMaybeEmpty(run.trajectory, run.format, where, run.task ?? body.task);
    const steps = doc.steps;
    checkLength(steps, deps.maxSteps, where);
    // A run's task field is for a log that names none (as body.task, and the CLI's --task): it never renames the log's own.
    return {
      index,
      id: run.id ?? `runs[${index}]`,
      task: doc.meta.task ?? run.task ?? body.task,
      given: run.task,
      steps,
      agent: run.agent ?? body.agent ?? doc.meta.agent,
      model: run.model ?? body.model ?? doc.meta.model,
    };
  });
  const scored = parsed.flatMap((r) => ('session' in r ? [] : [r]));
  const given = scored.flatMap((r) => (r.given !== undefined ? [{ id: `runs[${r.index}].task`, task: r.given }] : []));
  const named = [...(body.task !== undefined ? [{ id: 'body.task', task: body.task }] : []), ...given, ...scored];
  const group = groupTask(named, body.mixedTasks, MIXED_TASKS_HINT);
  if (!group.ok) throw new SteplensError(group.error.code, group.error.message);
  const references = new Map<string, Reference>();
  const referenceOf = async (task: string | undefined): Promise<Reference> => {
    if (task === undefined) return { kind: 'prior', prior: await deps.prior() };
    const known = references.get(task);
    if (known !== undefined) return known;
    const ref = await deps.reference(task);
    references.set(task, ref);
    return ref;
  };
  const runs: RankJobRun[] = [];
  const consensus = body.consensus === true || body.basis === 'consensus';
  for (const r of parsed) {
    if ('session' in r) {
      runs.push(r);
      continue;
    }
    // Scored as `POST /v1/score` scores (scoreTrajectory); the states travel back only as the edit locations the consensus compares.
    const forecast = deps.forecast !== undefined ? selectModel(deps.forecast, r.agent, r.model) : undefined;
    // A run naming no task joins the group's (groupTask), as on the CLI: it meets that task's reference.
    const reference = await referenceOf(r.task ?? group.value ?? undefined);
    const scorer = createScorer({
      reference,
      // Scopes are read by PTA matching and the consensus only: otherwise no file a run views is parsed to find them (core/scope-free.ts).
      analyzers: analyzersFor(reference, deps.analyzers, consensus),
      policy: deps.policy,
      config: deps.config,
      // The run's source (the agent and model the request names, else its log's) picks the forecast model, as POST /v1/score does.
      ...(forecast !== undefined ? { forecast } : {}),
    });
    // The vote's final patch is read only when asked (a diff of every finish step parsed for nothing otherwise).
    const patch = body.basis === 'vote' ? createFinalPatchTracker() : undefined;
    // "rankModel": "end": the finished run's pPass by the end-of-run model of its source, from the same states and labels (as rank --rank-model end).
    const end = endModel !== undefined ? createEndScorer(endModel, r.agent, r.model) : undefined;
    const steps = numberedSteps(r.steps);
    // A slice at a time (job-slices.ts): another tenant's job in the worker runs in between.
    await pushInSlices(
      scorer,
      steps,
      patch || end
        ? (pushed, t) => {
            patch?.add(r.steps[t]!, pushed.state, pushed.label);
            end?.add(steps[t]!, pushed.state, pushed.label);
          }
        : undefined,
    );
    const report = scorer.report();
    const locations = [...locationItems(scorer.states())];
    runs.push({
      index: r.index,
      id: r.id,
      task: r.task,
      composite: report.score.total,
      reference: report.reference,
      pPass: end !== undefined ? end.value() : report.pPass,
      ...inSampleField(deps.forecast, r.steps, report.pPass),
      steps: report.steps,
      locations,
      ...(patch !== undefined ? { patch: runPatch(patch, r.index) } : {}),
    });
  }
  return {
    ...(body.task !== undefined ? { task: body.task } : {}),
    consensus: body.consensus === true,
    ...(body.basis !== undefined ? { basis: body.basis } : {}),
    mixedTasks: body.mixedTasks === true,
    ...(body.rankModel !== undefined ? { rankModel: body.rankModel } : {}),
    runs,
  };
}

/** The class of a run's final patch, or the call's refusal naming the run (T55: lines that would take gigabytes to list). */
function runPatch(patch: FinalPatchTracker, index: number): PatchClass {
  const made = netClass(patch.net());
  if (!made.ok) throw new SteplensError('bad_input', `runs[${index}]: its final patch: ${made.error}`);
  return made.value;
}
