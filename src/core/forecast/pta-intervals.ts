/**
 * The intervals of the PTA-mode composite's leave-one-source-out table (pta-weights.ts): each source's AUROC and the
 * mean over sources for the weights chosen without it, the weights in force, the choice on every source, each signal
 * alone and run length, drawn as every other AUROC `train` prints is, by `separation` resampling tasks (a task's runs
 * are not independent; here every run's reference is built from its task's other passing runs). The figures stay the
 * report's; only their intervals are added.
 */
import type { Weights } from '../config.js';
import type { BootstrapOptions } from '../stats/bootstrap.js';
import type { Interval } from '../stats/interval.js';
import { separation, type ScoredOutcome } from '../stats/separation.js';
import { PTA_SIGNALS, ptaGroups, ptaScore, type PtaColumn, type PtaIntervals, type PtaSample, type PtaSourceResult, type PtaWeightsReport } from './pta-weights.js';

const COLUMNS: readonly PtaColumn[] = ['heldOut', 'shipped', 'final', ...PTA_SIGNALS, 'lengthAlone'];
const noIntervals = () => Object.fromEntries(COLUMNS.map((c) => [c, null])) as Record<PtaColumn, Interval | null>;

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
  const bySource = Object.create(null) as PtaIntervals['bySource'];
  for (const s of r.sources) bySource[s.source] = noIntervals();
  const mean = noIntervals();
  for (const c of COLUMNS) {
    if (c === 'heldOut' && !r.heldOutPossible) continue;
    // A run with no task is a task of its own (separation's rule for a null task).
    const runs: ScoredOutcome[] = [...groups].flatMap(([name, xs]) => xs.map((x) => ({ source: name, task: x.task ?? null, pass: x.passed, score: scoreOf[c](x, by.get(name)!) })));
    // minPerClass 1: the report's mean is over every source with both outcomes.
    const sep = separation(runs, { ...options, unit: 'task', minPerClass: 1 });
    for (const s of sep.withinSource.sources) bySource[s.source]![c] = s.interval;
    mean[c] = sep.withinSource.interval;
  }
  return { ...r, intervals: { bySource, mean } };
}
