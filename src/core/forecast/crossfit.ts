/**
 * Held-out linear scores of every run, two ways (method.md section 16):
 * - **leave one source out**: each source's runs scored by a model fitted
 *   on every other source (the shared intercept, as an unseen source gets):
 *   what a source the model never saw sees;
 * - **task-disjoint folds**: each run scored by a model fitted without its
 *   task (no task on both sides), with its source's own intercept and
 *   weights: what new tasks of the sources trained on see.
 * Each returns, per run, z at every row it keeps (null when the training
 * side lacked an outcome), and recalibration is then cross-fitted within
 * each source ({@link crossCalibrate}). Pure and deterministic (the fold of a
 * task is a hash of its name and the seed).
 */
import { compileModel, scoreOf, type CompiledModel } from './forecaster.js';
import { FEATURE_COUNT } from './features.js';
import { fitRanker, rankerModel, type FitConfig } from './fit.js';
import { fitPlatt, IDENTITY_PLATT, type Platt } from './platt.js';
import { sourceOf, type ForecastRun } from './run.js';

/** Deterministic 32-bit FNV-1a hash (fold assignment). */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The fold (0..k−1) of every task: tasks sorted by their seeded hash, dealt round-robin, so folds differ in size by at most one task. */
export function taskFolds(tasks: readonly string[], k: number, seed: number): Map<string, number> {
  const sorted = [...new Set(tasks)].sort((a, b) => hash(`${seed}:${a}`) - hash(`${seed}:${b}`) || (a < b ? -1 : 1));
  return new Map(sorted.map((t, i) => [t, i % k]));
}

export type HeldOutScores = Array<Float64Array | null>;

const bothOutcomes = (runs: readonly ForecastRun[]) => runs.some((r) => r.passed) && runs.some((r) => !r.passed);

/** z at every row of `run` under a compiled model. */
function scoreRows(c: CompiledModel, run: ForecastRun): Float64Array {
  const out = new Float64Array(run.at.length);
  for (let i = 0; i < out.length; i++) out[i] = scoreOf(c, run.rows, i * FEATURE_COUNT);
  return out;
}

/**
 * Leave-one-source-out scores of the runs of `holdOut` sources (default: every
 * source); `configFor` gives the config used when a source is held out (train
 * chooses it without that source).
 */
export function leaveSourceOut(runs: readonly ForecastRun[], configFor: (source: string) => FitConfig, holdOut?: readonly string[]): HeldOut {
  const src = runs.map(sourceOf);
  const sources = holdOut ?? [...new Set(src)].sort();
  const out: HeldOutScores = runs.map(() => null);
  for (const s of sources) {
    const train = runs.filter((_, i) => src[i] !== s);
    if (!bothOutcomes(train)) continue;
    const model = compileModel(rankerModel(fitRanker(train, configFor(s)), undefined));
    runs.forEach((r, i) => {
      if (src[i] === s) out[i] = scoreRows(model, r);
    });
  }
  return { scores: out };
}

/**
 * Leave one source out with tasks disjoint too: the runs of source `s` in task fold f are scored by a model fitted
 * on the other sources' runs of the other task folds, so no run of the scored run's task (from any source) is
 * trained on. Leave one source out alone shares tasks: 181 of CodeR + gpt-4's 199 tasks were trained on through
 * SWE-agent 0.x + gpt-4's runs of them, which put its held-out AUROC 0.03 above this one (docs/forecast.md).
 */
export function leaveSourceAndTaskOut(runs: readonly ForecastRun[], configFor: (source: string) => FitConfig, k: number, seed: number): HeldOut {
  const src = runs.map(sourceOf);
  const folds = taskFolds(
    runs.map((r) => r.task),
    k,
    seed,
  );
  const out: HeldOutScores = runs.map(() => null);
  for (const s of [...new Set(src)].sort()) {
    for (let f = 0; f < k; f++) {
      if (!runs.some((r, i) => src[i] === s && folds.get(r.task) === f)) continue;
      const train = runs.filter((r, i) => src[i] !== s && folds.get(r.task) !== f);
      if (!bothOutcomes(train)) continue;
      const model = compileModel(rankerModel(fitRanker(train, configFor(s)), undefined));
      runs.forEach((r, i) => {
        if (src[i] === s && folds.get(r.task) === f) out[i] = scoreRows(model, r);
      });
    }
  }
  return { scores: out };
}

/** Task-disjoint k-fold scores (each run by a model fitted without its task, with its source's intercept and weights). */
export function taskFoldsOut(runs: readonly ForecastRun[], cfg: FitConfig, k: number, seed: number): HeldOut {
  const folds = taskFolds(
    runs.map((r) => r.task),
    k,
    seed,
  );
  const out: HeldOutScores = runs.map(() => null);
  for (let f = 0; f < k; f++) {
    const train = runs.filter((r) => folds.get(r.task) !== f);
    if (!bothOutcomes(train)) continue;
    const ranker = fitRanker(train, cfg);
    const compiled = new Map<string, CompiledModel>();
    runs.forEach((r, i) => {
      if (folds.get(r.task) !== f) return;
      const s = sourceOf(r);
      let c = compiled.get(s);
      if (c === undefined) {
        c = compileModel(rankerModel(ranker, s));
        compiled.set(s, c);
      }
      out[i] = scoreRows(c, r);
    });
  }
  return { scores: out };
}

export interface HeldOut {
  scores: HeldOutScores;
}

/** A source none of whose runs a held-out model scored, and why. */
export interface NotScored {
  source: string;
  nPass: number;
  nFail: number;
  reason: string;
}

/**
 * The sources left out of leave-one-source-out figures: a source is scored by a model fitted on the others,
 * which needs a passing and a failing run among them. Listed so a table can name them instead of dropping them.
 */
export function notScoredBySource(runs: readonly ForecastRun[], h: HeldOut): NotScored[] {
  const src = runs.map(sourceOf);
  const out: NotScored[] = [];
  for (const s of [...new Set(src)].sort()) {
    const own = runs.filter((_, i) => src[i] === s);
    if (runs.some((_, i) => src[i] === s && h.scores[i] !== null)) continue;
    const others = runs.filter((_, i) => src[i] !== s);
    const missing = others.length === 0 ? 'no other source' : !others.some((r) => r.passed) ? 'no passing run' : !others.some((r) => !r.passed) ? 'no failing run' : 'no model';
    const reason = others.length === 0 ? 'not scored: no other source to fit a model on' : `not scored: the other sources have ${missing} to fit a model on`;
    out.push({ source: s, nPass: own.filter((r) => r.passed).length, nFail: own.filter((r) => !r.passed).length, reason });
  }
  return out;
}

/** The end-of-run score of each run (null where not scored). */
export const endScores = (h: HeldOut): Array<number | null> => h.scores.map((z) => (z === null || z.length === 0 ? null : z[z.length - 1]!));

/**
 * Per run, the recalibration fitted on the OTHER task folds of its own source
 * (held-out end scores and outcomes), pulled toward `prior` (default the
 * identity): recalibration per agent + model from reported outcomes, without
 * the run's own outcome or task.
 */
export function crossCalibrate(runs: readonly ForecastRun[], h: HeldOut, k: number, seed: number, prior: Platt = IDENTITY_PLATT): Array<Platt | null> {
  const ends = endScores(h);
  const folds = taskFolds(
    runs.map((r) => r.task),
    k,
    seed,
  );
  const out: Array<Platt | null> = runs.map(() => null);
  const bySource = new Map<string, number[]>();
  runs.forEach((r, i) => {
    if (ends[i] === null) return;
    const s = sourceOf(r);
    bySource.set(s, [...(bySource.get(s) ?? []), i]);
  });
  for (const idx of bySource.values()) {
    for (let f = 0; f < k; f++) {
      const test = idx.filter((i) => folds.get(runs[i]!.task) === f);
      if (test.length === 0) continue;
      const train = idx.filter((i) => folds.get(runs[i]!.task) !== f).map((i) => ({ z: ends[i]!, pass: runs[i]!.passed }));
      const c = fitPlatt(train, prior);
      for (const i of test) out[i] = c;
    }
  }
  return out;
}
