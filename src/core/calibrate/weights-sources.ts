/**
 * The weights fit's AUROCs within each source (issue 26): the pooled table mixes sources whose pass rates and scores
 * differ, so each candidate (the fit held out, in-sample, the paper's weights, each signal alone) is also read on each
 * source's own runs with a reference, with its n (passing / failing) and a 95 % bootstrap interval resampling the
 * source's tasks, and their mean over the sources with 3 or more of each, as `train`'s PTA-mode table reads them.
 */
import type { SignalValues } from '../composite.js';
import { composite } from '../composite.js';
import type { Weights } from '../config.js';
import type { BootstrapOptions } from '../stats/bootstrap.js';
import type { Interval } from '../stats/interval.js';
import { separation, type ScoredOutcome } from '../stats/separation.js';
import { FIT_MODE, type WeightSample } from './weights-fit.js';

/** The candidates of the weights table, in its column order. */
export const WEIGHT_COLUMNS = ['fittedHeldOut', 'fittedInSample', 'paper', 'struct', 'cov', 'coh', 'temp'] as const;
export type WeightColumn = (typeof WEIGHT_COLUMNS)[number];

/** One AUROC with its interval (null: no passing or no failing run; interval null: too few tasks or runs to draw). */
export interface AurocWithInterval {
  auroc: number | null;
  interval: Interval | null;
}

/** One source's runs with a reference and each candidate's AUROC on them. */
export interface WeightSourceRow {
  source: string;
  passing: number;
  failing: number;
  /** True when the source has 3 or more passing and failing runs and so counts in the mean. */
  counted: boolean;
  aurocs: Record<WeightColumn, AurocWithInterval>;
}

export interface WeightsWithinSource {
  sources: WeightSourceRow[];
  /** Mean over the counted sources, per candidate (tasks resampled across them). */
  mean: Record<WeightColumn, AurocWithInterval>;
  counted: number;
  minPerClass: number;
}

/** The name of a sample's source ("unnamed" when it has none). */
export const sourceOf = (s: WeightSample): string => s.source ?? 'unnamed';

/** Each candidate's AUROC within each source on the runs with a reference; `folds`: each task's weights fitted without it (bootstrap seeded by `options`). */
export function weightsWithinSource(
  samples: readonly WeightSample[],
  folds: ReadonlyArray<{ task: string; weights: Weights }>,
  fitted: Weights,
  paper: Weights,
  options: BootstrapOptions = {},
): WeightsWithinSource {
  const byTask = new Map(folds.map((f) => [f.task, f.weights]));
  const runs = samples.filter((s) => s[FIT_MODE] !== null);
  const score: Record<WeightColumn, (v: SignalValues, s: WeightSample) => number> = {
    fittedHeldOut: (v, s) => composite(v, byTask.get(s.task)!).total,
    fittedInSample: (v) => composite(v, fitted).total,
    paper: (v) => composite(v, paper).total,
    struct: (v) => v.struct ?? Number.NaN,
    cov: (v) => v.cov ?? Number.NaN,
    coh: (v) => v.coh,
    temp: (v) => v.temp,
  };
  const seps = WEIGHT_COLUMNS.map((c) => {
    const scored: ScoredOutcome[] = runs.map((s) => ({ source: sourceOf(s), task: s.task, pass: s.passed, score: score[c](s[FIT_MODE]!, s) }));
    return separation(scored, { ...options, unit: 'task' });
  });
  const first = seps[0]!.withinSource;
  const per = (pick: (sep: (typeof seps)[number]) => AurocWithInterval) => Object.fromEntries(WEIGHT_COLUMNS.map((c, k) => [c, pick(seps[k]!)])) as Record<WeightColumn, AurocWithInterval>;
  const sources = first.sources.map((s, i) => ({
    source: s.source,
    passing: s.nPass,
    failing: s.nFail,
    counted: s.counted,
    aurocs: per((sep) => ({ auroc: sep.withinSource.sources[i]!.auroc, interval: sep.withinSource.sources[i]!.interval })),
  }));
  return { sources, mean: per((sep) => ({ auroc: sep.withinSource.mean, interval: sep.withinSource.interval })), counted: first.counted, minPerClass: first.minPerClass };
}
