/** The report's summary tables as plain data: tasks, models, separation, best-of-N, calibration, Lucky categories, and their `--by-reference` copies. */
import type { Interval } from '../../core/stats/interval.js';
import { modelLabel, UNNAMED_TASK } from '../identity.js';
import type { CorpusReport, ModelRow, SelectionRow, SeparationRow } from '../types.js';
import { hi, lo, r1, r3, rankCell, type Cell, type Table } from './table-cells.js';

export function tasksTable(r: CorpusReport): Table {
  return {
    name: 'tasks',
    title: 'Tasks',
    headers: ['task', 'trajectories', 'passing', 'failing', 'other', 'references', 'scored', 'unscored', 'external_pta'],
    rows: r.tasks.map((t) => [
      t.task ?? UNNAMED_TASK,
      t.trajectories,
      t.passing,
      t.failing,
      t.other,
      t.references,
      t.scored,
      t.unscored,
      t.external ? `${t.external.source} v${t.external.version} (${t.external.references} refs, ${t.external.scored} scored)` : null,
    ]),
  };
}

/** Per source (agent + model): pass rate and mean quality with n and interval, ranks, tiers, waste. */
/** The name of the models table (of one `--by-reference` kind with `suffix`). */
export const modelsTableName = (suffix = ''): string => `models${suffix ? `-${suffix}` : ''}`;

export function modelsTable(r: CorpusReport, models: readonly ModelRow[] = r.models, suffix = ''): Table {
  return {
    name: modelsTableName(suffix),
    title: `Models (agent + model): pass rate vs. process quality${suffix ? `, scored ${suffix}` : ''}`,
    headers: [
      'agent',
      'model',
      'trajectories',
      'evaluated',
      'passes',
      'pass_rate',
      'pass_rate_lo',
      'pass_rate_hi',
      'rank_pass',
      'scored',
      'mean_quality',
      'mean_quality_lo',
      'mean_quality_hi',
      'rank_quality',
      'rank_shift',
      'scored_passing',
      'ideal',
      'ideal_lo',
      'ideal_hi',
      'solid',
      'solid_lo',
      'solid_hi',
      // lucky: the share of scored passing runs rated Lucky, as ideal and solid are; a lucky_rate column repeated it.
      'lucky',
      'lucky_lo',
      'lucky_hi',
      'C1',
      'C2',
      'C3',
      'C4',
      'C5',
      'unclassified',
      'wasted_steps',
      'wasted_tokens',
    ],
    rows: models.map((m) => [
      m.agent,
      modelLabel(m),
      m.trajectories,
      m.evaluated,
      m.passes,
      r3(m.passRate),
      lo(m.passRateInterval),
      hi(m.passRateInterval),
      rankCell(m.rankPass, m.rankPassTied),
      m.scored,
      r1(m.meanQuality),
      r1(m.meanQualityInterval?.lo),
      r1(m.meanQualityInterval?.hi),
      rankCell(m.rankQuality, m.rankQualityTied),
      m.rankShift,
      m.scoredPassing,
      r3(m.tierShares?.Ideal),
      lo(m.tierShareIntervals?.Ideal ?? null),
      hi(m.tierShareIntervals?.Ideal ?? null),
      r3(m.tierShares?.Solid),
      lo(m.tierShareIntervals?.Solid ?? null),
      hi(m.tierShareIntervals?.Solid ?? null),
      r3(m.tierShares?.Lucky),
      lo(m.tierShareIntervals?.Lucky ?? null),
      hi(m.tierShareIntervals?.Lucky ?? null),
      m.luckyMix.C1,
      m.luckyMix.C2,
      m.luckyMix.C3,
      m.luckyMix.C4,
      m.luckyMix.C5,
      m.luckyMix.unclassified,
      m.wastedSteps,
      m.wastedTokens,
    ]),
  };
}

/** Per score: within source (headline: mean over sources), within task, pooled beside source-only, KS; n on each. */
export function separationTable(r: CorpusReport, rows: readonly SeparationRow[] = r.separation, suffix = ''): Table {
  return {
    name: `separation${suffix ? `-${suffix}` : ''}`,
    title: `Passing vs. failing: AUROC within source (headline), within task, pooled${suffix ? `, scored ${suffix}` : ''}`,
    headers: [
      'signal',
      'reference',
      'n_pass',
      'n_fail',
      'within_source',
      'within_source_lo',
      'within_source_hi',
      'sources_counted',
      'sources',
      'within_task',
      'within_task_lo',
      'within_task_hi',
      'task_pairs',
      'tasks',
      'pooled',
      'pooled_lo',
      'pooled_hi',
      'source_only',
      'source_only_lo',
      'source_only_hi',
      'pooled_ks_d',
      'pooled_ks_p',
    ],
    rows: rows.map((s) => [
      s.signal,
      s.reference,
      s.nPass,
      s.nFail,
      r3(s.withinSource.mean),
      lo(s.withinSource.interval),
      hi(s.withinSource.interval),
      s.withinSource.counted,
      s.withinSource.sources.length,
      r3(s.withinTask.auroc),
      lo(s.withinTask.interval),
      hi(s.withinTask.interval),
      s.withinTask.pairs,
      s.withinTask.tasks,
      r3(s.pooled.auroc),
      lo(s.pooled.interval),
      hi(s.pooled.interval),
      r3(s.pooled.sourceOnly),
      lo(s.pooled.sourceOnlyInterval),
      hi(s.pooled.sourceOnlyInterval),
      r3(s.ksD),
      s.ksP === null ? null : Number(s.ksP.toPrecision(3)),
    ]),
  };
}

/** Per score and source: the AUROC on that source's own runs, with n and interval (the within-source mean's parts). */
export function sourceSeparationTable(r: CorpusReport, rows: readonly SeparationRow[] = r.separation, suffix = ''): Table {
  return {
    name: `separation-by-source${suffix ? `-${suffix}` : ''}`,
    title: `AUROC per source${suffix ? `, scored ${suffix}` : ''} (counted: >= ${r.statistics.minPerClass} passing and failing runs)`,
    headers: ['signal', 'source', 'n_pass', 'n_fail', 'auroc', 'auroc_lo', 'auroc_hi', 'counted'],
    rows: rows.flatMap((s) => s.withinSource.sources.map((x) => [s.signal, x.source, x.nPass, x.nFail, r3(x.auroc), lo(x.interval), hi(x.interval), x.counted ? 'yes' : 'no'])),
  };
}

/**
 * Best-of-N: per source + task group, the top-scored run against a random pick and the oracle; how many of its runs
 * the forecaster was trained on (pPass rows; null: the composite's, or not checked); last, the groups per reference kind.
 */
export function selectionTable(r: CorpusReport, rows: readonly SelectionRow[] = r.selection, suffix = ''): Table {
  const pick = (p: { resolved: number | null; rate: number | null; interval: Interval | null }): Cell[] => [r3(p.resolved), r3(p.rate), lo(p.interval), hi(p.interval)];
  return {
    name: `selection${suffix ? `-${suffix}` : ''}`,
    title: `Best-of-N${suffix ? `, scored ${suffix}` : ''}: top-scored run vs. random pick vs. oracle (groups: one source, one task, >= 2 runs)`,
    headers: [
      'score',
      'source',
      'groups',
      'runs',
      'informative',
      'top_resolved',
      'top_rate',
      'top_lo',
      'top_hi',
      'random_resolved',
      'random_rate',
      'random_lo',
      'random_hi',
      'oracle_resolved',
      'oracle_rate',
      'oracle_lo',
      'oracle_hi',
      'gap_closed',
      'gap_closed_lo',
      'gap_closed_hi',
      'in_sample_runs',
      'groups_in_folder',
      'groups_external',
      'groups_reference_free',
    ],
    rows: rows.map((s) => [
      s.score,
      s.source,
      s.groups,
      s.runs,
      s.informative,
      ...pick(s.top),
      ...pick(s.random),
      ...pick(s.oracle),
      r3(s.gapClosed),
      lo(s.gapInterval),
      hi(s.gapInterval),
      s.inSampleRuns ?? null,
      s.groupsByReference['in-folder'],
      s.groupsByReference.external,
      s.groupsByReference['reference-free'],
    ]),
  };
}

/** Calibration of pPass per source (with a forecaster): ECE with its interval beside a perfectly calibrated forecaster's at the same n. */
export function calibrationTable(r: CorpusReport): Table {
  return {
    name: 'calibration',
    title:
      'Calibration of pPass per source: ECE (10 bins) with its bootstrap interval; "perfect" = the ECE a perfectly calibrated forecaster shows at the same predictions and n (outcomes drawn from pPass: mean, 95th percentile), p = (1 + those draws at least the ECE) / (1 + draws), never 0; debiased = ECE − perfect_mean (the noise floor), with the ECE interval, its lower end less the floor (the true error lies between ECE − floor and ECE on average), widened to hold it (can be below 0: no miscalibration shown); pass_rate: the share of the n runs that passed (with its interval in the models table)',
    headers: ['source', 'n', 'mean_ppass', 'pass_rate', 'ece', 'ece_lo', 'ece_hi', 'perfect_mean', 'perfect_p95', 'p', 'debiased', 'debiased_lo', 'debiased_hi'],
    rows: (r.calibration ?? []).map((c) => [
      c.source,
      c.n,
      r3(c.meanPredicted),
      r3(c.observedRate),
      r3(c.ece),
      lo(c.interval),
      hi(c.interval),
      r3(c.perfect?.mean),
      r3(c.perfect?.hi),
      r3(c.p),
      r3(c.debiased?.ece),
      lo(c.debiased?.interval ?? null),
      hi(c.debiased?.interval ?? null),
    ]),
  };
}

/** The reliability diagram as rows: per source and pPass bin with runs, the mean pPass against the pass rate (Wilson interval). */
export function reliabilityDiagramTable(r: CorpusReport): Table {
  return {
    name: 'reliability-diagram',
    title: 'Reliability diagram of pPass per source: runs, mean pPass and pass rate [Wilson 95 %] per bin',
    headers: ['source', 'bin', 'n', 'mean_ppass', 'pass_rate', 'pass_rate_lo', 'pass_rate_hi'],
    rows: (r.calibration ?? []).flatMap((c) =>
      c.bins.filter((b) => b.n > 0).map((b) => [c.source, `${b.lo.toFixed(1)}-${b.hi.toFixed(1)}`, b.n, r3(b.predicted), r3(b.observed), lo(b.interval), hi(b.interval)]),
    ),
  };
}

export function luckyTable(r: CorpusReport): Table {
  const c = r.luckyChiSquare;
  return { name: 'lucky-by-model', title: 'Lucky categories by source (agent + model)', headers: ['source', ...c.cols], rows: c.rows.map((m, i) => [m, ...c.table[i]!]) };
}

/** The per-reference-kind tables of `--by-reference` (none without it). */
export function referenceTables(r: CorpusReport, selectionOf: typeof selectionTable = selectionTable): Table[] {
  return (r.byReference ?? []).flatMap((b) => [modelsTable(r, b.models, b.reference), separationTable(r, b.separation, b.reference), selectionOf(r, b.selection, b.reference)]);
}
