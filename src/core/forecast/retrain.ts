/**
 * Retraining per agent + model from finished sessions (`serve
 * --forecast-learn`), under the within-source rule of `train`: for each
 * source (agent + model as the sessions named them) with enough sessions, a
 * candidate model of its own (its intercept, its weights pulled toward the
 * default model's, then recalibrated) is checked by task-disjoint folds over
 * that source's sessions against the model in force for it on the same
 * sessions, and goes in force for that source only if its held-out
 * within-source AUROC is not lower and its held-out log loss not higher.
 * What the model in force learned here from these sessions is refitted out
 * of fold too (`inForceEndP`), so both sides are held out; an own model in
 * force fitted on exactly these sessions is not tried again.
 * Sessions that name neither agent nor model are a source too: theirs is
 * the default model. Other sources' models are kept as they are.
 *
 * A source without a candidate of its own (too few sessions, or its
 * candidate rejected) that reported `minRecalibration` outcomes or more is
 * recalibrated instead (recalibrate.ts): the model in force for it, its
 * pPass map refitted on all its outcomes and pulled toward the map it had
 * before any of them (a map `train` fitted on the source's own runs weighs
 * as those runs). Monotone, so its ranking figures stay; it goes in
 * force when it moves some session's end pPass by 0.01 or more.
 */
import { auroc } from '../stats/auroc.js';
import { taskFolds } from './crossfit.js';
import { compileModel, scoreOf } from './forecaster.js';
import { FEATURE_COUNT, type FeatureName } from './features.js';
import { designOf, OWN_WEIGHTS_MIN_CLASS } from './fit.js';
import { fitDesign } from './logistic.js';
import { selectModel, type ForecastFile, type ForecastModel } from './model.js';
import { applyPlatt, IDENTITY_PLATT } from './platt.js';
import { MIN_RECALIBRATION_OUTCOMES, RECALIBRATION, recalibrateSource } from './recalibrate.js';
import type { ForecastRun } from './run.js';
import { BASE_CONFIG } from './select.js';

export interface RetrainOptions {
  /** Fewest sessions of a source (default 20) and of each outcome (default 5) to try. */
  minRuns?: number;
  minClass?: number;
  /** Fewest outcomes of a source to recalibrate its model in force (default {@link MIN_RECALIBRATION_OUTCOMES}). */
  minRecalibration?: number;
  folds?: number;
  seed?: number;
  /** Penalty toward the default model's weights, as a multiple of its lambda (default 10). */
  kappa?: number;
  lambda?: number;
  /** ISO time stamp of the candidate. */
  now: string;
}

/** Held-out figures of one source's sessions. */
export interface SourceFigures {
  sessions: number;
  passing: number;
  auroc: number | null;
  logLoss: number;
}

export interface SourceAttempt {
  agent?: string;
  model?: string;
  /** `recalibrated`: no model of its own, the model in force with its pPass map refitted on the source's outcomes. */
  result: 'skipped' | 'rejected' | 'accepted' | 'recalibrated';
  reason: string;
  heldOut?: SourceFigures;
  inForce?: SourceFigures;
}

export type RetrainResult = { kind: 'skipped' | 'rejected'; reason: string; sources: SourceAttempt[] } | { kind: 'accepted'; reason: string; sources: SourceAttempt[]; candidate: ForecastFile };

const TOL = 1e-12;
const keyOf = (r: Pick<ForecastRun, 'agent' | 'model'>) => JSON.stringify([r.agent, r.model]);

/** A source's own model fitted on `runs`: weights pulled toward `base`'s, its own intercept, recalibrated on its own end scores. */
function ownModel(runs: readonly ForecastRun[], base: ForecastModel, match: ForecastModel['match'], lambda: number, kappa: number): ForecastModel {
  const design = designOf(runs, base.features as FeatureName[], BASE_CONFIG.endWeight);
  const fit = fitDesign(design, { lambda: lambda * kappa, prior: base.weights, start: base.weights, standard: base });
  const raw: ForecastModel = {
    ...base,
    match,
    weights: fit.weights,
    intercept: fit.intercept,
    calibration: { a: 0, b: 1 },
    trainedOn: { runs: runs.length, passing: runs.filter((r) => r.passed).length, tasks: new Set(runs.map((r) => r.task)).size },
  };
  const c = compileModel(raw);
  // Calibrated by the recalibration rule from the identity, and marked so: a later recalibration on the same outcomes changes nothing.
  const calibration = recalibrateSource(
    runs.map((r) => ({ z: scoreOf(c, r.rows, (r.at.length - 1) * FEATURE_COUNT), pass: r.passed })),
    IDENTITY_PLATT,
  );
  return { ...raw, calibration, recalibrated: { from: IDENTITY_PLATT, outcomes: runs.length, passing: raw.trainedOn.passing }, learnedOwn: { lambda, kappa } };
}

const sameMatch = (a: ForecastModel['match'], b: ForecastModel['match']): boolean => a.agent === b.agent && a.model === b.model;

function figures(runs: readonly ForecastRun[], p: readonly number[]): SourceFigures {
  const pos = p.filter((_, i) => runs[i]!.passed);
  const neg = p.filter((_, i) => !runs[i]!.passed);
  let ll = 0;
  p.forEach((q, i) => {
    const c = Math.min(1 - 1e-9, Math.max(1e-9, q));
    ll -= runs[i]!.passed ? Math.log(c) : Math.log(1 - c);
  });
  return { sessions: runs.length, passing: pos.length, auroc: auroc(pos, neg)?.auroc ?? null, logLoss: ll / runs.length };
}

const endP = (m: ForecastModel, r: ForecastRun): number => {
  const c = compileModel(m);
  return applyPlatt(m.calibration, scoreOf(c, r.rows, (r.at.length - 1) * FEATURE_COUNT));
};

/**
 * The end pPass of the model in force for each session, out of fold when it was learned here from these sessions:
 * an own model fitted here (`learnedOwn`) refitted per fold by its procedure (`ownModel` from `defaultModel`, then
 * its map) on the fold's training sessions; else a pPass map learned here (`recalibrated`) refitted per fold by the
 * rule that fitted it. Scored on the very outcomes it was fitted on, its figures were in-sample while the
 * candidate's are held out: a better candidate lost to a map (rank26, 100 CodeR sessions: log loss 0.6071 held out
 * against 0.5718 in-sample), and later candidates to an own model fitted at 25 sessions (learn24). NaN where a
 * fold's training sessions lack an outcome (the candidate has none there either).
 */
function inForceEndP(runs: readonly ForecastRun[], base: ForecastModel, defaultModel: ForecastModel, folds: Map<string, number>, k: number): number[] {
  const learned = base.recalibrated;
  const own = base.learnedOwn;
  if (learned === undefined && own === undefined) return runs.map((r) => endP(base, r));
  const c = compileModel(base);
  const points = runs.map((r) => ({ z: scoreOf(c, r.rows, (r.at.length - 1) * FEATURE_COUNT), pass: r.passed }));
  const prior = learned?.priorRuns ?? 0;
  const rule = { strength: Math.max(RECALIBRATION.strength, prior), slopeStrength: Math.max(RECALIBRATION.slopeStrength, prior) };
  const p = new Array<number>(runs.length).fill(Number.NaN);
  for (let f = 0; f < k; f++) {
    const train = runs.filter((r) => folds.get(r.task) !== f);
    let pOf: (i: number) => number;
    if (own !== undefined) {
      if (!train.some((r) => r.passed) || !train.some((r) => !r.passed)) continue;
      const m = ownModel(train, defaultModel, base.match, own.lambda, own.kappa);
      pOf = (i) => endP(m, runs[i]!);
    } else {
      const map = recalibrateSource(
        points.filter((_, i) => folds.get(runs[i]!.task) !== f),
        learned!.from,
        rule,
      );
      pOf = (i) => applyPlatt(map, points[i]!.z);
    }
    runs.forEach((r, i) => {
      if (folds.get(r.task) === f) p[i] = pOf(i);
    });
  }
  return p;
}

/** Smallest change of a session's end pPass that puts a recalibration in force. */
const MIN_RECALIBRATION_CHANGE = 0.01;

/**
 * The model in force for the source, its map refitted on the source's outcomes and pulled toward the map it
 * had before any of them; undefined when there are too few outcomes or no session's pPass moves by
 * {@link MIN_RECALIBRATION_CHANGE}.
 */
function recalibrated(runs: readonly ForecastRun[], base: ForecastModel, match: ForecastModel['match'], minOutcomes: number): ForecastModel | undefined {
  if (runs.length < Math.max(1, minOutcomes)) return undefined;
  const c = compileModel(base);
  const zs = runs.map((r) => scoreOf(c, r.rows, (r.at.length - 1) * FEATURE_COUNT));
  const from = base.recalibrated?.from ?? base.calibration;
  // A map `train` fitted on this source's own runs (a matched model from the file) counts as those runs; the
  // default model's pooled map, or one learned here, as the rule's prior only.
  const priorRuns = base.recalibrated !== undefined ? (base.recalibrated.priorRuns ?? 0) : base.match.agent !== undefined || base.match.model !== undefined ? base.trainedOn.runs : 0;
  const calibration = recalibrateSource(
    zs.map((z, i) => ({ z, pass: runs[i]!.passed })),
    from,
    { strength: Math.max(RECALIBRATION.strength, priorRuns), slopeStrength: Math.max(RECALIBRATION.slopeStrength, priorRuns) },
  );
  const moved = zs.some((z) => Math.abs(applyPlatt(calibration, z) - applyPlatt(base.calibration, z)) >= MIN_RECALIBRATION_CHANGE);
  if (!moved) return undefined;
  return { ...base, match, calibration, recalibrated: { from, outcomes: runs.length, passing: runs.filter((r) => r.passed).length, ...(priorRuns > 0 ? { priorRuns } : {}) } };
}

/** One source's attempt, recalibrated when it gets no model of its own (see the file comment). */
function attemptOrRecalibrate(runs: readonly ForecastRun[], file: ForecastFile, o: RetrainOptions, minRuns: number, minClass: number): { attempt: SourceAttempt; model?: ForecastModel } {
  const tried = attemptSource(runs, file, o, minRuns, minClass);
  if (tried.model !== undefined) return tried;
  const { agent, model } = runs[0]!;
  const match = { ...(agent !== '' ? { agent } : {}), ...(model !== '' ? { model } : {}) };
  // The default model is every unnamed source's: it is never recalibrated on one source's outcomes.
  if (match.agent === undefined && match.model === undefined) return tried;
  const base = selectModel(file, match.agent, match.model) ?? file.models[0]!;
  const next = recalibrated(runs, base, match, o.minRecalibration ?? MIN_RECALIBRATION_OUTCOMES);
  if (next === undefined) return tried;
  const passing = runs.filter((r) => r.passed).length;
  const f2 = (x: number) => x.toFixed(2);
  const reason = `own model ${tried.attempt.result} (${tried.attempt.reason}); pPass recalibrated on ${runs.length} outcomes (${passing} passing): a ${f2(next.calibration.a)}, b ${f2(next.calibration.b)} (was a ${f2(base.calibration.a)}, b ${f2(base.calibration.b)})`;
  return { attempt: { ...tried.attempt, result: 'recalibrated', reason }, model: next };
}

/** One source's attempt: the candidate checked by task-disjoint folds against the model in force. */
function attemptSource(runs: readonly ForecastRun[], file: ForecastFile, o: RetrainOptions, minRuns: number, minClass: number): { attempt: SourceAttempt; model?: ForecastModel } {
  const { agent, model } = runs[0]!;
  const match = { ...(agent !== '' ? { agent } : {}), ...(model !== '' ? { model } : {}) };
  const passing = runs.filter((r) => r.passed).length;
  const tasks = new Set(runs.map((r) => r.task)).size;
  const base = selectModel(file, match.agent, match.model) ?? file.models.find((m) => m.match.agent === undefined && m.match.model === undefined) ?? file.models[0]!;
  const defaultModel = file.models.find((m) => m.match.agent === undefined && m.match.model === undefined) ?? base;
  if (runs.length < minRuns || passing < Math.max(minClass, 1) || runs.length - passing < Math.max(minClass, 1) || tasks < 2) {
    return {
      attempt: {
        ...match,
        result: 'skipped',
        reason: `${runs.length} sessions with an outcome (${passing} passing) on ${tasks} tasks: need ${minRuns}, with ${minClass} of each outcome, on 2 tasks or more`,
      },
    };
  }
  if (base.learnedOwn !== undefined && sameMatch(base.match, match) && base.trainedOn.runs === runs.length && base.trainedOn.passing === passing) {
    // Refitted on the same sessions by the same procedure it would be the same model: nothing to try (no churn).
    return { attempt: { ...match, result: 'skipped', reason: `its own model in force was fitted here on these ${runs.length} sessions (${passing} passing): no new session` } };
  }
  const k = Math.min(o.folds ?? 5, tasks);
  const folds = taskFolds(
    runs.map((r) => r.task),
    k,
    o.seed ?? 1,
  );
  const lambda = o.lambda ?? file.config?.lambda ?? 0.01;
  const kappa = o.kappa ?? file.config?.kappa ?? 10;
  const held = new Array<number>(runs.length).fill(Number.NaN);
  for (let f = 0; f < k; f++) {
    const train = runs.filter((r) => folds.get(r.task) !== f);
    if (!train.some((r) => r.passed) || !train.some((r) => !r.passed)) continue;
    const m = ownModel(train, defaultModel, match, lambda, kappa);
    runs.forEach((r, i) => {
      if (folds.get(r.task) === f) held[i] = endP(m, r);
    });
  }
  const both = runs.map((_, i) => i).filter((i) => !Number.isNaN(held[i]!));
  const sub = both.map((i) => runs[i]!);
  const heldOut = figures(
    sub,
    both.map((i) => held[i]!),
  );
  // An own model in force fitted here by the candidate's very procedure (same source, penalty) is refitted on the same
  // folds to the same held-out values: the candidate's are reused, not fitted twice.
  const sameProcedure = base.learnedOwn?.lambda === lambda && base.learnedOwn.kappa === kappa && sameMatch(base.match, match);
  const inForceP = sameProcedure ? held : inForceEndP(runs, base, defaultModel, folds, k);
  const inForce = figures(
    sub,
    both.map((i) => inForceP[i]!),
  );
  const worseAuroc = heldOut.auroc !== null && inForce.auroc !== null && heldOut.auroc < inForce.auroc - TOL;
  const worseLoss = heldOut.logLoss > inForce.logLoss + TOL;
  const f4 = (x: number | null) => (x === null ? '-' : x.toFixed(4));
  const numbers = `held-out AUROC ${f4(heldOut.auroc)} vs ${f4(inForce.auroc)} in force, log loss ${f4(heldOut.logLoss)} vs ${f4(inForce.logLoss)} (${sub.length} sessions)`;
  if (worseAuroc || worseLoss || sub.length === 0) return { attempt: { ...match, result: 'rejected', reason: `candidate is worse within source: ${numbers}`, heldOut, inForce } };
  return { attempt: { ...match, result: 'accepted', reason: `candidate is not worse within source: ${numbers}`, heldOut, inForce }, model: ownModel(runs, defaultModel, match, lambda, kappa) };
}

/** Fits and checks a candidate per source; the caller swaps the file in when `accepted` (at least one source's model changed). */
export function retrainForecast(runs: readonly ForecastRun[], current: ForecastFile, o: RetrainOptions): RetrainResult {
  const minRuns = o.minRuns ?? 20;
  const minClass = o.minClass ?? OWN_WEIGHTS_MIN_CLASS;
  const bySource = new Map<string, ForecastRun[]>();
  for (const r of runs) bySource.set(keyOf(r), [...(bySource.get(keyOf(r)) ?? []), r]);
  const sources: SourceAttempt[] = [];
  let models = [...current.models];
  for (const key of [...bySource.keys()].sort()) {
    const { attempt, model } = attemptOrRecalibrate(bySource.get(key)!, current, o, minRuns, minClass);
    sources.push(attempt);
    if (model === undefined) continue;
    const same = (m: ForecastModel) => m.match.agent === model.match.agent && m.match.model === model.match.model;
    models = models.some(same) ? models.map((m) => (same(m) ? model : m)) : [...models, model];
  }
  const accepted = sources.filter((s) => s.result === 'accepted' || s.result === 'recalibrated');
  const name = (s: SourceAttempt) => (s.agent === undefined && s.model === undefined ? 'sessions naming no agent or model' : `${s.agent ?? '(any agent)'} + ${s.model ?? '(any model)'}`);
  const reason = sources.map((s) => `${name(s)}: ${s.result}, ${s.reason}`).join('; ');
  if (accepted.length === 0) return { kind: sources.some((s) => s.result === 'rejected') ? 'rejected' : 'skipped', reason, sources };
  const candidate: ForecastFile = { ...current, createdAt: o.now, models, evaluation: { retrainedOn: runs.length, sources } };
  return { kind: 'accepted', reason, sources, candidate };
}
