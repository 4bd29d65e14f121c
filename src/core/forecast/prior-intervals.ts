/**
 * The intervals of the reference-free composite's leave-one-source-out table and of its "each signal alone" table
 * (prior-weights.ts): each source's AUROC and the mean over sources, drawn as every other AUROC `train` prints is, by `separation` resampling tasks (a task's
 * runs are not independent). The figures themselves stay the report's; only their intervals are added.
 */
import type { BootstrapOptions } from '../stats/bootstrap.js';
import { columnIntervals } from './column-intervals.js';
import { groupSources, PAPER_PRIOR_WEIGHTS, priorScore, SINGLE_SIGNALS, type PriorColumn, type PriorIntervals, type PriorSample, type PriorWeightsReport, type SourceResult } from './prior-weights.js';

const COLUMNS: readonly PriorColumn[] = ['heldOut', 'lengthAlone', 'paper', 'final', ...SINGLE_SIGNALS];

/** The report with its intervals (tasks resampled, seeded by `options`). */
export function withPriorIntervals(r: PriorWeightsReport, samples: readonly PriorSample[], options: BootstrapOptions = {}): PriorWeightsReport {
  const groups = groupSources(samples, r.minRuns);
  const by = new Map(r.sources.map((s) => [s.source, s]));
  const scoreOf: Record<PriorColumn, (s: PriorSample, src: SourceResult) => number> = {
    heldOut: (s, src) => priorScore(s, src.chosen),
    lengthAlone: (s) => -s.steps,
    paper: (s) => priorScore(s, { weights: PAPER_PRIOR_WEIGHTS, brevitySteps: 30 }),
    final: (s) => priorScore(s, r.chosen),
    ...(Object.fromEntries(SINGLE_SIGNALS.map((k) => [k, (s: PriorSample) => s[k]])) as Record<(typeof SINGLE_SIGNALS)[number], (s: PriorSample) => number>),
  };
  const skip = new Set<PriorColumn>(r.heldOutPossible ? [] : ['heldOut']);
  const rows = r.sources.map((s) => s.source);
  const intervals: PriorIntervals = columnIntervals(COLUMNS, rows, groups, (name) => by.get(name)!, scoreOf, skip, options);
  return { ...r, intervals };
}
