/**
 * The intervals of the PTA-mode composite's leave-one-source-out table (pta-weights.ts): each source's AUROC and the
 * mean over sources for the weights chosen without it, the weights in force, the choice on every source, each signal
 * alone and run length, drawn as every other AUROC `train` prints is, by `separation` resampling tasks (a task's runs
 * are not independent; here every run's reference is built from its task's other passing runs). The figures stay the
 * report's; only their intervals are added.
 */
import type { Weights } from '../config.js';
import type { BootstrapOptions } from '../stats/bootstrap.js';
import { columnIntervals } from './column-intervals.js';
import { PTA_SIGNALS, ptaGroups, ptaScore, type PtaColumn, type PtaIntervals, type PtaSample, type PtaSourceResult, type PtaWeightsReport } from './pta-weights.js';

const COLUMNS: readonly PtaColumn[] = ['heldOut', 'shipped', 'final', ...PTA_SIGNALS, 'lengthAlone'];

/** The report with its intervals (tasks resampled, seeded by `options`); `shipped` are the weights in force the report was made with. */
export function withPtaIntervals(r: PtaWeightsReport, samples: readonly PtaSample[], shipped: Weights, options: BootstrapOptions = {}): PtaWeightsReport {
  const groups = ptaGroups(samples, r.minRuns);
  const by = new Map(r.sources.map((s) => [s.source, s]));
  const scoreOf: Record<PtaColumn, (s: PtaSample, src: PtaSourceResult) => number> = {
    heldOut: (s, src) => ptaScore(s, src.chosen),
    shipped: (s) => ptaScore(s, shipped),
    final: (s) => ptaScore(s, r.chosen),
    struct: (s) => s.struct,
    cov: (s) => s.cov,
    coh: (s) => s.coh,
    temp: (s) => s.temp,
    lengthAlone: (s) => -s.steps,
  };
  const skip = new Set<PtaColumn>(r.heldOutPossible ? [] : ['heldOut']);
  const rows = r.sources.map((s) => s.source);
  // A run with no task is a task of its own (separation's rule for a null task).
  const intervals: PtaIntervals = columnIntervals(COLUMNS, rows, groups, (name) => by.get(name)!, scoreOf, skip, options);
  return { ...r, intervals };
}
