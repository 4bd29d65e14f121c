/** The per-view tables of `steplens train`'s forecaster report: AUROC within source, calibration, reliability, best-of-N. */
import type { ViewEvaluation } from '../core/forecast/evaluate.js';
import type { NotScored } from '../core/forecast/crossfit.js';
import { plural } from '../core/plural.js';
import type { Interval } from '../core/stats/interval.js';
import type { Separation } from '../core/stats/separation.js';
import { est, f3, flipped, iv, pct } from './train-cells.js';
import { renderTable } from './table.js';

/** One source's AUROC cell: value, interval, n passing / failing. */
function cell(sep: Separation | undefined, source: string): string {
  const s = sep?.withinSource.sources.find((x) => x.source === source);
  if (s === undefined) return '-';
  return `${est(s.auroc, s.interval)} (${s.nPass}/${s.nFail})`;
}

/**
 * The within-source table of one view: pPass at the end and after t steps, beside run length both ways; `notScored`:
 * sources no held-out model scored, each named with why (a source missing from the table read as never trained on).
 */
/** A row with the end-of-run AUROC only (no prefix columns), run length beside it with the intervals it was drawn with (audit25). */
function endOnlyRow(label: string, counts: string, end: { auroc: number | null; interval: Interval | null }, shorter: { auroc: number | null; interval: Interval | null }): string[] {
  return [label, counts, est(end.auroc, end.interval), '', '', '', est(shorter.auroc, shorter.interval), flipped(shorter.auroc, shorter.interval)];
}

export function separationTable(v: ViewEvaluation, notScored: readonly NotScored[] = []): string {
  const sources = v.end.withinSource.sources;
  const longer = (s: string) => {
    const x = v.shorter.withinSource.sources.find((y) => y.source === s);
    return x === undefined ? '-' : flipped(x.auroc, x.interval);
  };
  const rows = sources.map((s) => [
    `${s.source}${s.counted ? '' : ' *'}`,
    `${s.nPass} / ${s.nFail}`,
    est(s.auroc, s.interval),
    ...['10', '20', '40'].map((t) => cell(v.at[t], s.source)),
    cell(v.shorter, s.source),
    longer(s.source),
  ]);
  for (const s of notScored) rows.push([`${s.source} *`, `${s.nPass} / ${s.nFail}`, s.reason, '', '', '', '', '']);
  const ws = v.end.withinSource;
  const meanShorter = v.shorter.withinSource.mean;
  rows.push([
    `mean within source (${plural(ws.counted, 'source')})`,
    '',
    est(ws.mean, ws.interval),
    ...['10', '20', '40'].map((t) => `${est(v.at[t]?.withinSource.mean, v.at[t]?.withinSource.interval)} (${plural(v.at[t]?.withinSource.counted ?? 0, 'source')})`),
    est(meanShorter, v.shorter.withinSource.interval),
    flipped(meanShorter, v.shorter.withinSource.interval),
  ]);
  const wt = v.end.withinTask;
  rows.push(endOnlyRow(`within task (${plural(wt.tasks, 'task')}, ${plural(wt.pairs, 'pass/fail pair')})`, '', wt, v.shorter.withinTask));
  const po = v.end.pooled;
  rows.push(endOnlyRow(`pooled (source alone: ${est(po.sourceOnly, po.sourceOnlyInterval)})`, `${po.nPass} / ${po.nFail}`, po, v.shorter.pooled));
  return renderTable(['source (* not in the mean: < 3 passing or failing)', 'pass / fail', 'pPass at end [95 %]', 't=10 [95 %] (pass/fail)', 't=20', 't=40', 'shorter wins', 'longer wins'], rows);
}
/** ECE per source (recalibrated; and, leaving a source out, before any of its outcomes), mean pPass against the pass rate. */
export function calibrationTable(v: ViewEvaluation, uncalibrated?: { ece: Record<string, { ece: number | null }>; checks?: Record<string, { interval: Interval | null }>; weighting: string }): string {
  const checks = v.calibration.checks ?? {};
  const perfect = (s: string) => {
    const c = checks[s];
    return c?.perfect ? `${f3(c.perfect.mean)} (${f3(c.perfect.hi)})` : '-';
  };
  // Beside the ECE and its noise floor it is computed from (it was last, ~600 characters right of them: audit30).
  const debiased = (d: { debiased?: { ece: number; interval: Interval | null } | null } | undefined) => (d?.debiased ? est(d.debiased.ece, d.debiased.interval) : '-');
  const rows = Object.entries(v.calibration.bySource).map(([s, c]) => [
    s,
    String(c.n),
    f3(c.meanPredicted),
    checks[s] === undefined ? f3(c.observedRate) : est(c.observedRate, checks[s].passRate),
    checks[s] === undefined ? f3(c.ece) : est(c.ece, checks[s].interval),
    perfect(s),
    debiased(checks[s]),
    ...(uncalibrated ? [est(uncalibrated.ece[s]?.ece, uncalibrated.checks?.[s]?.interval)] : []),
  ]);
  const a = v.calibration.all;
  const ac = v.calibration.allCheck;
  const sources = Object.keys(v.calibration.bySource).length;
  const allPerfect = ac?.perfect ? `${f3(ac.perfect.mean)} (${f3(ac.perfect.hi)})` : '-';
  rows.push([
    `all runs, pooled over ${sources} source${sources === 1 ? '' : 's'}`,
    String(a.n),
    f3(a.meanPredicted),
    ac === undefined ? f3(a.observedRate) : est(a.observedRate, ac.passRate),
    ac === undefined ? f3(a.ece) : est(a.ece, ac.interval),
    allPerfect,
    debiased(ac),
    ...(uncalibrated ? [''] : []),
  ]);
  return renderTable(
    [
      'source',
      'runs',
      'mean pPass',
      "pass rate [95 %: Wilson, tasks' design effect]",
      'ECE (10 bins) [95 %]',
      'perfectly calibrated at this n: ECE mean (95th pct)',
      'debiased: ECE − noise floor (the perfect mean) [95 %: the ECE interval, its lower end − floor, widened to hold it]',
      ...(uncalibrated ? [`ECE before any outcome of the source: the default model's map fitted without it (--default-map ${uncalibrated.weighting}) [95 %]`] : []),
    ],
    rows,
  );
}

/** Fewest runs of a source behind its per-bin reliability rows. */
const RELIABILITY_MIN_RUNS = 20;
/** The reliability diagram of each source with 20 runs or more (bins with runs; observed rate with its Wilson interval). */
export function reliabilityTable(v: ViewEvaluation): string {
  const rows: string[][] = [];
  for (const [s, c] of Object.entries(v.calibration.bySource)) {
    if (c.n < RELIABILITY_MIN_RUNS) continue;
    for (const b of c.bins) if (b.n > 0) rows.push([s, `${b.lo.toFixed(1)}-${b.hi.toFixed(1)}`, String(b.n), f3(b.predicted), `${f3(b.observed)}${iv(b.interval, b.observed)}`]);
  }
  if (rows.length === 0) return `no source has ${RELIABILITY_MIN_RUNS} runs or more: no per-bin table (each bin would hold a handful of runs)\n`;
  // The sources under the bound are named by count, so the table is never read as every source's.
  const under = Object.values(v.calibration.bySource).filter((c) => c.n < RELIABILITY_MIN_RUNS);
  const runs = under.reduce((k, c) => k + c.n, 0);
  const note =
    under.length === 0
      ? ''
      : `(${under.length} source${under.length === 1 ? '' : 's'} with fewer than ${RELIABILITY_MIN_RUNS} runs, ${runs} runs in all, ${under.length === 1 ? 'has' : 'have'} no per-bin rows: their ECE is in the calibration table)\n`;
  return `${renderTable(['source', 'pPass bin', 'runs', 'mean pPass', 'pass rate [95 %]'], rows)}${note}`;
}
export function bestOfNTable(v: ViewEvaluation): string {
  const rows = [...Object.entries(v.bestOfN.bySource), ['all sources', v.bestOfN.all] as const]
    .filter(([, b]) => b.groups > 0)
    .map(([s, b]) => [
      s,
      `${b.groups} (${b.runs})`,
      String(b.informative),
      b.top.resolved === null ? '- (unscored runs)' : resolvedCell(b.top.resolved, b.top.rate, b.top.interval),
      resolvedCell(b.random.resolved, b.random.rate, b.random.interval),
      resolvedCell(b.oracle.resolved, b.oracle.rate, b.oracle.interval),
      b.gapClosed === null ? '- (no gap)' : `${pct(b.gapClosed)}${b.gapInterval ? ` [${pct(b.gapInterval.lo)}, ${pct(b.gapInterval.hi)}]` : ' [-]'}`,
    ]);
  if (rows.length === 0) return 'best-of-N: no task has 2 runs of one source\n';
  return renderTable(['source', 'tasks (runs)', 'with pass and fail', 'top pick resolves (rate [95 %])', 'random pick', 'oracle', 'gap closed'], rows);
}

/** Tasks resolved, then the rate with its interval: the interval is the rate's, so it is printed beside the rate, not the count. */
const resolvedCell = (resolved: number, rate: number | null, interval: Interval | null): string =>
  `${resolved.toFixed(1)}${rate === null ? '' : ` (${f3(rate)}${interval ? iv(interval, rate) : ' [-]'})`}`;
