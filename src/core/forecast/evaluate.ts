/**
 * What `train` reports of held-out pPass, in the one definition of
 * docs/method.md section 16 (core/stats): separation within source (each
 * source's AUROC with n and a bootstrap interval; the headline is their
 * mean), within task and pooled beside `sourceOnly`; the same after t = 10,
 * 20, 40 steps over the runs that reached t; run length alone beside it
 * (shorter wins; longer wins is 1 − each figure); calibration (ECE and the
 * reliability bins) per source; best-of-N per source.
 *
 * Ranking figures (AUROC, best-of-N) are taken on the held-out score z, and
 * calibration on the recalibrated pPass. A source's recalibration is one
 * monotone map, so it never reorders the runs of a source; but it is
 * cross-fitted (a different map for each task fold), and ranking the
 * cross-fitted values would mix maps that one written model never mixes.
 */
import { bestOfN, type BestOfN } from '../stats/best-of-n.js';
import type { BootstrapOptions } from '../stats/bootstrap.js';
import { calibrationCheck, type CalibrationCheck } from '../stats/calibration-check.js';
import { calibrationError, type CalibrationError } from '../stats/calibration-error.js';
import { separation, type ScoredOutcome, type Separation } from '../stats/separation.js';
import { rowAt, sourceOf, type ForecastRun } from './run.js';

export const EVAL_STEPS = [10, 20, 40] as const;

/** Held-out pPass of one run: at each row it keeps (aligned with `run.at`), or null when not predicted. */
export type HeldOutPPass = Array<Float64Array | null>;

export interface ViewEvaluation {
  /** End-of-run pPass. */
  end: Separation;
  /** Run length alone, shorter = pass (longer = pass is 1 − each AUROC). */
  shorter: Separation;
  /** pPass after t steps over the runs that reached t, keyed by t (intervals resample tasks, as `end`'s). */
  at: Record<string, Separation>;
  /**
   * ECE and reliability bins of the end-of-run pPass, per source and over all runs; `checks`: per source, the
   * ECE's bootstrap interval beside the ECE a perfectly calibrated forecaster shows at the same predictions and n.
   */
  calibration: { bySource: Record<string, CalibrationError>; all: CalibrationError; checks?: Record<string, CalibrationCheck>; allCheck?: CalibrationCheck };
  /** Best-of-N on the end-of-run pPass (source + task groups of 2 or more runs), per source and over all. */
  bestOfN: { bySource: Record<string, BestOfN>; all: BestOfN };
  /** Mean log loss and Brier score of the end-of-run pPass. */
  logLoss: number | null;
  brier: number | null;
}

const outcome = (r: ForecastRun, score: number): ScoredOutcome => ({ source: sourceOf(r), task: r.task, pass: r.passed, score });

function groupBySource<T extends { source: string }>(xs: readonly T[]): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of [...xs].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0))) {
    const g = m.get(x.source);
    if (g) g.push(x);
    else m.set(x.source, [x]);
  }
  return m;
}

/** The end-of-run pPass of each run (null where not predicted). */
export const endOf = (p: HeldOutPPass): Array<number | null> => p.map((x) => (x === null || x.length === 0 ? null : x[x.length - 1]!));

/** Calibration of end-of-run predictions, per source and over all (with `options`, each source's check too). */
export function calibrationBySource(runs: readonly ForecastRun[], ends: ReadonlyArray<number | null>, options?: BootstrapOptions): ViewEvaluation['calibration'] {
  const preds = runs.flatMap((r, i) => (ends[i] === null ? [] : [{ source: sourceOf(r), task: r.task, p: ends[i]!, pass: r.passed }]));
  // Keyed by the runs' agent and model names: tables without a prototype read and write every name as its own.
  const bySource = Object.create(null) as Record<string, CalibrationError>;
  const checks = Object.create(null) as Record<string, CalibrationCheck>;
  for (const [s, ps] of groupBySource(preds)) {
    bySource[s] = calibrationError(ps);
    if (options !== undefined) checks[s] = calibrationCheck(ps, options);
  }
  // The pooled ECE gets its interval too (tasks resampled, as each source's), so the pooled figure is no bare point.
  return { bySource, all: calibrationError(preds), ...(options !== undefined ? { checks, allCheck: calibrationCheck(preds, options) } : {}) };
}

/** Every figure of one view: ranking on the held-out scores `z`, calibration on the held-out pPass `p` (both per run, per row). */
export function evaluateView(runs: readonly ForecastRun[], z: HeldOutPPass, p: HeldOutPPass, options: BootstrapOptions = {}): ViewEvaluation {
  const zEnds = endOf(z);
  const ends = endOf(p);
  const scored = runs.flatMap((r, i) => (zEnds[i] === null ? [] : [outcome(r, zEnds[i]!)]));
  const at: Record<string, Separation> = {};
  for (const t of EVAL_STEPS) {
    const alive = runs.flatMap((r, i) => {
      const row = z[i] === null ? -1 : rowAt(r, t);
      return row < 0 ? [] : [outcome(r, z[i]![row]!)];
    });
    // Printed beside the end-of-run figures, so drawn the same way: tasks resampled.
    at[String(t)] = separation(alive, { ...options, unit: 'task' });
  }
  const bySource = Object.create(null) as Record<string, BestOfN>;
  for (const [s, rs] of groupBySource(scored)) bySource[s] = bestOfN(rs, options);
  let ll = 0;
  let br = 0;
  let m = 0;
  runs.forEach((r, i) => {
    const q = ends[i];
    if (q === null || q === undefined) return;
    const y = r.passed ? 1 : 0;
    const c = Math.min(1 - 1e-9, Math.max(1e-9, q));
    ll -= y * Math.log(c) + (1 - y) * Math.log(1 - c);
    br += (q - y) ** 2;
    m += 1;
  });
  return {
    // Intervals resample tasks: a task's runs (and its runs in several sources) are not independent.
    end: separation(scored, { ...options, unit: 'task', sourceOnlyInterval: true }),
    shorter: separation(
      runs.flatMap((r, i) => (zEnds[i] === null ? [] : [outcome(r, -r.length)])),
      { ...options, unit: 'task' },
    ),
    at,
    calibration: calibrationBySource(runs, ends, options),
    bestOfN: { bySource, all: bestOfN(scored, options) },
    logLoss: m > 0 ? ll / m : null,
    brier: m > 0 ? br / m : null,
  };
}
