/**
 * `steplens train`'s method, pure: choose the configuration held out
 * (select.ts), evaluate it two ways (leave one source out: a source never
 * trained on; task-disjoint folds: new tasks of the sources trained on),
 * each with pPass recalibrated per source on held-out outcomes of that source
 * only (cross-fitted by task), check the `lowForecast` stop under the
 * calibrate rule, and fit the models to write: a default model (the shared
 * intercept, its map fitted on the leave-one-source-out scores: defaultMap)
 * and one per source seen (its intercept, its own weights where chosen, its
 * recalibration on its task-fold scores).
 */
import type { BootstrapOptions } from '../stats/bootstrap.js';
import type { CalibrationCheck } from '../stats/calibration-check.js';
import type { CalibrationError } from '../stats/calibration-error.js';
import { crossCalibrate, endScores, leaveSourceAndTaskOut, leaveSourceOut, notScoredBySource, taskFolds, type HeldOut, type NotScored } from './crossfit.js';
import { calibrationBySource, evaluateView, type HeldOutPPass, type ViewEvaluation } from './evaluate.js';
import { fitRanker, rankerModel, type FitConfig } from './fit.js';
import type { ForecastModel } from './model.js';
import { applyPlatt, fitPlatt, type Platt } from './platt.js';
import { sourceOf, type ForecastRun } from './run.js';
import { selectConfig, type Selection } from './select.js';
import { evaluateForecastStop, type StopEvaluation } from './stop-eval.js';
import { checkStopApart, withApart, type StopApart } from './stop-apart.js';

export interface TrainOptions extends BootstrapOptions {
  folds: number;
  seed: number;
  /** The lowForecast check's per-source cap (calibrate's --source-max; default 0.02). */
  sourceMax?: number;
  /** Weights of the within-task pairwise term the choice tries (fit.ts `pairWeight`; default 0 alone). */
  pairWeights?: readonly number[];
  /** How the default model's map weighs each source's runs (default `runs`). */
  defaultMap?: DefaultMapWeighting;
}

/** A configuration as the evaluation reports it. */
export interface ConfigSummary {
  set: string;
  features: string[];
  lambda: number;
  endWeight: number;
  groupSd: number;
  kappa: number | null;
  /** The within-task pairwise term's weight (absent: 0, the pointwise fit). */
  pairWeight?: number;
}

/** A candidate's name in the evaluation: its set and penalty, and its pairwise weight when it has one. */
export interface CandidateName {
  set: string;
  lambda: number;
  pairWeight?: number;
}

export interface TrainEvaluation {
  folds: number;
  seed: number;
  /** How the default model's map weighed each source's runs (its "before any outcome" ECEs are that map's). */
  defaultMap: DefaultMapWeighting;
  selection: {
    note: string;
    steering: string[];
    candidates: Array<CandidateName & { bySource: Record<string, number | null>; mean: number | null; withinTask?: { auroc: number | null; pairs: number } }>;
    chosen: ConfigSummary;
    /** Per steering source: the set and lambda chosen on the runs without it (its leave-one-source-out figures use them; select.ts `chosenApart`). */
    chosenWithout: Record<string, CandidateName>;
    kappas: Selection['kappas'];
  };
  /**
   * Each source scored by models fitted without it and without its runs' tasks (task folds), under the
   * configuration chosen on the runs without it, recalibrated on its own other task folds; `notScored`: the
   * sources no such model could score (the others lack an outcome), absent from the figures (optional: files
   * written before it lack it).
   */
  leaveSourceOut: ViewEvaluation & {
    /** Each source's ECE before any of its outcomes (the shared model's pPass, not recalibrated on the source). */
    uncalibrated: Record<string, CalibrationError>;
    /** The same ECE's bootstrap interval (tasks resampled) beside a perfectly calibrated forecaster's, as `calibration.checks`. */
    uncalibratedChecks?: Record<string, CalibrationCheck>;
    notScored?: NotScored[];
  };
  /** Each run scored by models fitted without its task, recalibrated on its source's other task folds. */
  taskFolds: ViewEvaluation;
  /**
   * The lowForecast stop on the task-fold pPass (what the written file gives these sources), and the same choice made
   * on the other task folds and applied to each (`apart`; a recommendation that does not hold there is withdrawn).
   */
  stop: StopEvaluation & { apart: StopApart };
}

export interface TrainResult {
  models: ForecastModel[];
  evaluation: TrainEvaluation;
}

const paired = (c: FitConfig) => ((c.pairWeight ?? 0) > 0 ? { pairWeight: c.pairWeight! } : {});
const summary = (set: string, c: FitConfig): ConfigSummary => ({ set, features: [...c.features], lambda: c.lambda, endWeight: c.endWeight, groupSd: c.groupSd, kappa: c.kappa, ...paired(c) });

/** pPass at every row: each run's recalibration applied to its held-out scores. */
function pPassOf(h: HeldOut, calibrations: ReadonlyArray<Platt | null>): HeldOutPPass {
  return h.scores.map((z, i) => {
    const c = calibrations[i];
    return z === null || c === null || c === undefined ? null : z.map((v) => applyPlatt(c, v));
  });
}

/**
 * Leave-one-source-out scores under `chosenWithout` (a steering source
 * reuses the scores of that candidate; every other source is fitted now
 * with the configuration chosen on all steering sources): what the written
 * default model is calibrated on. The held-out figures use
 * {@link heldOutApart} instead.
 */
export function heldOutBySource(runs: readonly ForecastRun[], sel: Selection): HeldOut {
  const configFor = (s: string): FitConfig => sel.candidates[sel.chosenWithout[s] ?? sel.candidates.indexOf(sel.chosen)]!.config;
  // Under 2 steering sources nothing was chosen and selection scored none of them (select.ts): each is fitted now.
  const reused = sel.steering.length >= 2 ? sel.steering : [];
  const rest = [...new Set(runs.map(sourceOf))].filter((s) => !reused.includes(s)).sort();
  const restScores = leaveSourceOut(runs, configFor, rest);
  return {
    scores: runs.map((r, i) => {
      const at = reused.includes(sourceOf(r)) ? sel.chosenWithout[sourceOf(r)] : undefined;
      return at !== undefined ? sel.loso[at]!.scores[i]! : restScores.scores[i]!;
    }),
  };
}

/**
 * The held-out figures' scores: each source's runs by models fitted on the other sources' runs of the other task
 * folds (crossfit.ts `leaveSourceAndTaskOut`), a steering source under the configuration chosen on the runs
 * without it (select.ts `chosenApart`), every other source under the one chosen on the steering sources.
 */
export function heldOutApart(runs: readonly ForecastRun[], sel: Selection, k: number, seed: number): HeldOut {
  const configFor = (s: string): FitConfig => sel.candidates[sel.chosenApart[s] ?? sel.candidates.indexOf(sel.chosen)]!.config;
  return leaveSourceAndTaskOut(runs, configFor, k, seed);
}

/** How the default model's map weighs the runs of each source (train --default-map). */
export type DefaultMapWeighting = 'runs' | 'sources';

/** Whether `text` names a {@link DefaultMapWeighting} (train's and the calibration bench's `--default-map`). */
export const isDefaultMapWeighting = (text: string): text is DefaultMapWeighting => text === 'runs' || text === 'sources';

/**
 * The default model's map (pPass for an agent + model the file has no model of): a Platt map fitted on held-out
 * end scores, without the source `leave` when given. `runs` (the default): every run counts once, so the largest
 * source sets the intercept (SWE-agent 0.x's 721 runs, 10 % passing, on the shared data). `sources`: each of a
 * source's n runs counts N / (S · n) (N runs of S sources), as if a new source were a draw from the sources; held
 * out it gives an unseen source a better ECE on average but recovers more slowly from reported outcomes on sources
 * that pass rarely (docs/forecast.md, "Before any outcome").
 */
export function defaultMap(runs: readonly ForecastRun[], ends: ReadonlyArray<number | null>, leave?: string, weighting: DefaultMapWeighting = 'runs'): Platt {
  const sources = runs.map(sourceOf);
  const kept = runs.flatMap((_, i) => (ends[i] === null || sources[i] === leave ? [] : [i]));
  const perSource = new Map<string, number>();
  for (const i of kept) perSource.set(sources[i]!, (perSource.get(sources[i]!) ?? 0) + 1);
  const scale = kept.length / perSource.size;
  const weightOf = (i: number): number => (weighting === 'runs' ? 1 : scale / perSource.get(sources[i]!)!);
  return fitPlatt(
    kept.map((i) => ({ z: ends[i]!, pass: runs[i]!.passed, weight: weightOf(i) })),
    undefined,
    0,
  );
}

/**
 * The pPass a source gets before any outcome of it is known: the default model's map fitted without the source, at
 * the source's held-out end score. Until stop 66 this figure was σ(z), the ranker's score with no map, which the
 * server never outputs for a source it does not know.
 */
export function unseenSourcePPass(runs: readonly ForecastRun[], h: HeldOut, weighting: DefaultMapWeighting = 'runs'): Array<number | null> {
  const ends = endScores(h);
  const maps = new Map<string, Platt>();
  return runs.map((r, i) => {
    if (ends[i] === null) return null;
    const s = sourceOf(r);
    if (!maps.has(s)) maps.set(s, defaultMap(runs, ends, s, weighting));
    return applyPlatt(maps.get(s)!, ends[i]!);
  });
}

/** Trains and evaluates on `runs` (both outcomes present; callers check). */
export function trainForecast(runs: readonly ForecastRun[], o: TrainOptions): TrainResult {
  const boot = { ...(o.reps !== undefined ? { reps: o.reps } : {}), seed: o.seed, ...(o.level !== undefined ? { level: o.level } : {}) };
  const sel = selectConfig(runs, o.folds, o.seed, undefined, o.pairWeights);
  const chosen: FitConfig = { ...sel.chosen.config, kappa: sel.kappa };
  const loso = heldOutBySource(runs, sel);
  const apart = heldOutApart(runs, sel, o.folds, o.seed);
  const losoP = pPassOf(apart, crossCalibrate(runs, apart, o.folds, o.seed));
  const unseen = unseenSourcePPass(runs, apart, o.defaultMap);
  const foldP = pPassOf(sel.folds, crossCalibrate(runs, sel.folds, o.folds, o.seed));
  const fold = taskFolds(
    runs.map((r) => r.task),
    o.folds,
    o.seed,
  );
  const stopRuns = runs.flatMap((r, i) => {
    const p = foldP[i];
    return p?.length !== r.length ? [] : [{ source: sourceOf(r), passed: r.passed, pPass: p, costs: r.costs ?? new Float64Array(r.length), fold: fold.get(r.task)! }];
  });
  const chosenStop = evaluateForecastStop(stopRuns, undefined, undefined, o.sourceMax);
  const stop = withApart(
    chosenStop,
    checkStopApart(
      stopRuns,
      stopRuns.map((r) => r.fold),
      o.folds,
      chosenStop,
    ),
  );
  const candidateOf = (i: number): CandidateName => ({ set: sel.candidates[i]!.set, lambda: sel.candidates[i]!.config.lambda, ...paired(sel.candidates[i]!.config) });
  const before = calibrationBySource(runs, unseen, boot);
  const evaluation: TrainEvaluation = {
    folds: o.folds,
    seed: o.seed,
    defaultMap: o.defaultMap ?? 'runs',
    selection: {
      note: sel.note,
      steering: sel.steering,
      candidates: sel.candidates.map((c) => ({ set: c.set, lambda: c.config.lambda, ...paired(c.config), bySource: c.bySource, mean: c.mean, withinTask: c.withinTask })),
      chosen: summary(sel.chosen.set, chosen),
      chosenWithout: Object.fromEntries(Object.entries(sel.chosenApart).map(([s, i]) => [s, candidateOf(i)])),
      kappas: sel.kappas,
    },
    leaveSourceOut: { ...evaluateView(runs, apart.scores, losoP, boot), uncalibrated: before.bySource, uncalibratedChecks: before.checks ?? {}, notScored: notScoredBySource(runs, apart) },
    taskFolds: evaluateView(runs, sel.folds.scores, foldP, boot),
    stop,
  };
  return { models: fitModels(runs, chosen, loso, sel.folds, o.defaultMap), evaluation };
}

/** The default model and one per source, with their recalibrations (see the file comment). */
export function fitModels(runs: readonly ForecastRun[], config: FitConfig, loso: HeldOut, folds: HeldOut, weighting: DefaultMapWeighting = 'runs'): ForecastModel[] {
  const ranker = fitRanker(runs, config);
  const points = (h: HeldOut, pick: (r: ForecastRun) => boolean) => {
    const ends = endScores(h);
    return runs.flatMap((r, i) => (ends[i] === null || !pick(r) ? [] : [{ z: ends[i]!, pass: r.passed }]));
  };
  const models = [rankerModel(ranker, undefined, defaultMap(runs, endScores(loso), undefined, weighting))];
  const seen = new Map<string, ForecastRun>();
  for (const r of runs) if (!seen.has(sourceOf(r))) seen.set(sourceOf(r), r);
  for (const [s, r] of [...seen].sort(([a], [b]) => (a < b ? -1 : 1))) {
    models.push(rankerModel(ranker, s, fitPlatt(points(folds, (x) => sourceOf(x) === s)), { agent: r.agent, model: r.model }));
  }
  return models;
}
