/**
 * Calibrate on one half of the tasks, evaluate on the other (and the other
 * way round), so an in-sample number is never mistaken for a forecast. The
 * pooled out-of-sample numbers put every run's held-out result together:
 * each run judged by a policy chosen without its task.
 */
import { err, ok, type Result } from '../../errors.js';
import { plural } from '../plural.js';
import type { Policy } from '../policy.js';
import { runFacts, DEFAULT_BOUND } from './evaluate.js';
import { modePoints, modeStops, sourcesOf } from './evaluate-policy.js';
import { splitTasks } from './split.js';
import { calibrateTradeoff, type TradeoffOptions } from './tradeoff.js';
import type { HeldOutCheck } from './confirm.js';
import type { ModeName, StopSettings, TradeoffPoint, TradeoffResult, TradeoffRun } from './tradeoff-types.js';

/** One direction: chosen on `calibrationTasks`, measured there (in-sample) and on `holdoutTasks` (out-of-sample). */
export interface SplitFold {
  calibrationTasks: string[];
  holdoutTasks: string[];
  settings: StopSettings;
  policy: Policy;
  inSample: Record<ModeName, TradeoffPoint>;
  outOfSample: Record<ModeName, TradeoffPoint>;
  note?: string;
}

export interface SplitReport {
  seed: number;
  /** Which split of the seed (0: the seed's own; r > 0: the r-th further one, `splitTasks`). */
  repeat: number;
  holdout: number;
  folds: SplitFold[];
  /** Both folds' held-out runs together. */
  pooledOutOfSample: Record<ModeName, TradeoffPoint>;
}

/** The common part of a fold: chosen on `train`, replayed on `test`. */
interface FoldRun {
  fit: TradeoffResult;
  stops: Record<ModeName, Array<number | null>>;
  outOfSample: Record<ModeName, TradeoffPoint>;
}

/** Runs folds (train, test pairs) and pools their held-out stops. */
function runFolds(
  folds: ReadonlyArray<{ train: readonly TradeoffRun[]; test: readonly TradeoffRun[] }>,
  options: TradeoffOptions,
): Result<{ runs: FoldRun[]; pooled: Record<ModeName, TradeoffPoint> }, string> {
  const out: FoldRun[] = [];
  const pooledRuns: TradeoffRun[] = [];
  const pooled: Record<ModeName, Array<number | null>> = { reference: [], referenceFree: [] };
  for (const { train, test } of folds) {
    const fit = calibrateTradeoff(train, { ...options, wideFront: false });
    if (!fit.ok) return fit;
    const stops = modeStops(test, fit.value.chosen.policy);
    out.push({ fit: fit.value, stops, outOfSample: modePoints(test.map(runFacts), stops, boundOf(options)) });
    pooledRuns.push(...test);
    pooled.reference.push(...stops.reference);
    pooled.referenceFree.push(...stops.referenceFree);
  }
  return ok({ runs: out, pooled: modePoints(pooledRuns.map(runFacts), pooled, boundOf(options)) });
}

/** Two-fold split calibration by task (split `repeat` of `seed`); errors when a half has no run. */
export function splitCalibration(runs: readonly TradeoffRun[], seed: number, holdout: number, options: TradeoffOptions = {}, repeat = 0): Result<SplitReport, string> {
  if (!(holdout > 0 && holdout < 1)) return err(`holdout must be a share strictly between 0 and 1, got ${holdout}`);
  const split = splitTasks(
    runs.map((r) => r.task),
    seed,
    holdout,
    repeat,
  );
  const halves = [split.calibration, split.holdout].map((tasks) => new Set(tasks));
  const subsets = halves.map((h) => runs.filter((r) => h.has(r.task)));
  if (subsets.some((s) => s.length === 0)) return err(`splitting ${plural(halves[0]!.size + halves[1]!.size, 'task')} (${splitLabel(seed, repeat)}, hold-out ${holdout}) leaves a half without runs`);
  const order = [
    [0, 1],
    [1, 0],
  ] as const;
  const r = runFolds(
    order.map(([a, b]) => ({ train: subsets[a]!, test: subsets[b]! })),
    options,
  );
  if (!r.ok) return r;
  const folds: SplitFold[] = r.value.runs.map((f, i) => ({
    calibrationTasks: [...halves[order[i]![0]]!].sort(),
    holdoutTasks: [...halves[order[i]![1]]!].sort(),
    settings: f.fit.chosen.settings,
    policy: f.fit.chosen.policy,
    inSample: f.fit.chosen.modes,
    outOfSample: f.outOfSample,
    ...(f.fit.choice.note !== undefined ? { note: f.fit.choice.note } : {}),
  }));
  return ok({ seed, repeat, holdout, folds, pooledOutOfSample: r.value.pooled });
}

/** How split `repeat` of `seed` is named in the output (`seed 2`, `seed 2/1`, ...). */
export const splitLabel = (seed: number, repeat: number): string => `seed ${seed}${repeat === 0 ? '' : `/${repeat}`}`;

/** `count` splits by task from one seed (the seed's own first): the held-out check confirms across all of them. */
export function repeatedSplits(runs: readonly TradeoffRun[], seed: number, holdout: number, count: number, options: TradeoffOptions = {}): Result<SplitReport[], string> {
  if (!(Number.isInteger(count) && count >= 1)) return err(`the number of splits must be a positive integer, got ${count}`);
  const out: SplitReport[] = [];
  for (let repeat = 0; repeat < count; repeat++) {
    const s = splitCalibration(runs, seed, holdout, options, repeat);
    if (!s.ok) return s;
    out.push(s.value);
  }
  return ok(out);
}

/** The held-out check of repeated task splits (confirm.ts). */
export const taskSplitCheck = (splits: readonly SplitReport[]): HeldOutCheck => ({
  kind: 'half',
  splits: splits.map((s) => ({ label: splitLabel(s.seed, s.repeat), folds: s.folds.map((f) => f.settings), pooled: s.pooledOutOfSample })),
});

/** The held-out check of one leave-one-source-out round. */
export const sourceSplitCheck = (s: SourceSplitReport): HeldOutCheck => ({ kind: 'source', splits: [{ folds: s.folds.map((f) => f.settings), pooled: s.pooledOutOfSample }] });

const boundOf = (o: TradeoffOptions) => ({ method: o.bound ?? DEFAULT_BOUND.method, confidence: o.confidence ?? DEFAULT_BOUND.confidence });

/** One held-out source: the policy chosen on every other source, measured there and on the held-out one. */
export interface SourceFold {
  holdout: string;
  trainingSources: string[];
  settings: StopSettings;
  policy: Policy;
  warnOnly: boolean;
  inSample: Record<ModeName, TradeoffPoint>;
  outOfSample: Record<ModeName, TradeoffPoint>;
  note?: string;
}

export interface SourceSplitReport {
  folds: SourceFold[];
  /** Every source's held-out runs together: each run judged by a policy chosen without its source. */
  pooledOutOfSample: Record<ModeName, TradeoffPoint>;
}

/** Leave-one-source-out: for each source, calibrate on the others (same options) and measure on it; needs two sources. */
export function splitBySource(runs: readonly TradeoffRun[], options: TradeoffOptions = {}): Result<SourceSplitReport, string> {
  if (runs.some((r) => r.source === undefined)) return err('a split by source needs every run to name its source');
  const names = sourcesOf(runs);
  if (names.length < 2) return err(`a split by source needs at least two sources, got ${names.length}`);
  const r = runFolds(
    names.map((h) => ({ train: runs.filter((x) => x.source !== h), test: runs.filter((x) => x.source === h) })),
    options,
  );
  if (!r.ok) return r;
  const folds: SourceFold[] = r.value.runs.map((f, i) => ({
    holdout: names[i]!,
    trainingSources: names.filter((n) => n !== names[i]),
    settings: f.fit.chosen.settings,
    policy: f.fit.chosen.policy,
    warnOnly: f.fit.choice.warnOnly,
    inSample: f.fit.chosen.modes,
    outOfSample: f.outOfSample,
    ...(f.fit.choice.note !== undefined ? { note: f.fit.choice.note } : {}),
  }));
  return ok({ folds, pooledOutOfSample: r.value.pooled });
}
