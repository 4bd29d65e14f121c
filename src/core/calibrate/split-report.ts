/**
 * Calibrate on one half of the tasks, evaluate on the other (and the other
 * way round), so an in-sample number is never mistaken for a forecast. The
 * pooled out-of-sample numbers put every run's held-out result together:
 * each run judged by a policy chosen without its task.
 */
import { err, ok, type Result } from '../../errors.js';
import type { Policy } from '../policy.js';
import { runFacts, DEFAULT_BOUND } from './evaluate.js';
import { modePoints, modeStops, sourcesOf } from './evaluate-policy.js';
import { splitTasks } from './split.js';
import { calibrateTradeoff, type TradeoffOptions } from './tradeoff.js';
import type { ModeName, StopSettings, TradeoffPoint, TradeoffRun } from './tradeoff-types.js';

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
  holdout: number;
  folds: SplitFold[];
  /** Both folds' held-out runs together. */
  pooledOutOfSample: Record<ModeName, TradeoffPoint>;
}

/** Two-fold split calibration by task; errors when a half has no run. */
export function splitCalibration(runs: readonly TradeoffRun[], seed: number, holdout: number, options: TradeoffOptions = {}): Result<SplitReport, string> {
  if (!(holdout > 0 && holdout < 1)) return err(`holdout must be a share strictly between 0 and 1, got ${holdout}`);
  const split = splitTasks(runs.map((r) => r.task), seed, holdout);
  const halves = [split.calibration, split.holdout].map((tasks) => new Set(tasks));
  const subsets = halves.map((h) => runs.filter((r) => h.has(r.task)));
  if (subsets.some((s) => s.length === 0)) return err(`splitting ${halves[0]!.size + halves[1]!.size} tasks (seed ${seed}, hold-out ${holdout}) leaves a half without runs`);
  const folds: SplitFold[] = [];
  const pooledRuns: TradeoffRun[] = [];
  const pooled: Record<ModeName, (number | null)[]> = { reference: [], referenceFree: [] };
  for (const [a, b] of [[0, 1], [1, 0]] as const) {
    const fit = calibrateTradeoff(subsets[a]!, options);
    if (!fit.ok) return fit;
    const test = subsets[b]!;
    const stops = modeStops(test, fit.value.chosen.policy);
    folds.push({
      calibrationTasks: [...halves[a]!].sort(),
      holdoutTasks: [...halves[b]!].sort(),
      settings: fit.value.chosen.settings,
      policy: fit.value.chosen.policy,
      inSample: fit.value.chosen.modes,
      outOfSample: modePoints(test.map(runFacts), stops, boundOf(options)),
      ...(fit.value.choice.note !== undefined ? { note: fit.value.choice.note } : {}),
    });
    pooledRuns.push(...test);
    pooled.reference.push(...stops.reference);
    pooled.referenceFree.push(...stops.referenceFree);
  }
  return ok({ seed, holdout, folds, pooledOutOfSample: modePoints(pooledRuns.map(runFacts), pooled, boundOf(options)) });
}

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
  const folds: SourceFold[] = [];
  const pooledRuns: TradeoffRun[] = [];
  const pooled: Record<ModeName, (number | null)[]> = { reference: [], referenceFree: [] };
  for (const holdout of names) {
    const train = runs.filter((r) => r.source !== holdout);
    const test = runs.filter((r) => r.source === holdout);
    const fit = calibrateTradeoff(train, options);
    if (!fit.ok) return fit;
    const stops = modeStops(test, fit.value.chosen.policy);
    folds.push({
      holdout,
      trainingSources: names.filter((n) => n !== holdout),
      settings: fit.value.chosen.settings,
      policy: fit.value.chosen.policy,
      warnOnly: fit.value.choice.warnOnly,
      inSample: fit.value.chosen.modes,
      outOfSample: modePoints(test.map(runFacts), stops, boundOf(options)),
      ...(fit.value.choice.note !== undefined ? { note: fit.value.choice.note } : {}),
    });
    pooledRuns.push(...test);
    pooled.reference.push(...stops.reference);
    pooled.referenceFree.push(...stops.referenceFree);
  }
  return ok({ folds, pooledOutOfSample: modePoints(pooledRuns.map(runFacts), pooled, boundOf(options)) });
}
