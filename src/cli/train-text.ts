/** Human-readable output of `steplens train`: every AUROC with its n (passing / failing) and interval, the headline within source. */
import type { ViewEvaluation } from '../core/forecast/evaluate.js';
import type { ForecastModel } from '../core/forecast/model.js';
import { SINGLE_SIGNALS, type PriorWeightsReport } from '../core/forecast/prior-weights.js';
import { PTA_SIGNALS, type PtaWeightsReport } from '../core/forecast/pta-weights.js';
import type { Weights } from '../core/config.js';
import { plural } from '../core/plural.js';
import type { StopEvaluation, StopPoint } from '../core/forecast/stop-eval.js';
import type { StopApart } from '../core/forecast/stop-apart.js';
import type { NotScored } from '../core/forecast/crossfit.js';
import type { CandidateName, TrainEvaluation } from '../core/forecast/train.js';
import type { Interval } from '../core/stats/interval.js';
import type { Separation } from '../core/stats/separation.js';
import { meanLabel, noMeanNote } from './mean-rows.js';
import { renderTable } from './table.js';

const f3 = (x: number | null | undefined): string => (x === null || x === undefined ? '-' : x.toFixed(3));
const iv = (i: Interval | null | undefined): string => (i === null || i === undefined ? '' : ` [${i.lo.toFixed(2)}, ${i.hi.toFixed(2)}]`);
/** An estimate with its bootstrap interval; `[-]` when there is none (a side of one run, one task: no spread to draw). */
const est = (x: number | null | undefined, i: Interval | null | undefined): string => (x === null || x === undefined ? '-' : `${f3(x)}${i ? iv(i) : ' [-]'}`);
const pct = (x: number | null | undefined) => (x === null || x === undefined ? '-' : `${(100 * x).toFixed(1)} %`);

/** 1 − an AUROC with its interval flipped: the same ranking read the other way (longer runs win). */
const flipped = (x: number | null | undefined, i: Interval | null | undefined): string => (x === null || x === undefined ? '-' : est(1 - x, i ? { lo: 1 - i.hi, hi: 1 - i.lo, level: i.level } : null));

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
function separationTable(v: ViewEvaluation, notScored: readonly NotScored[] = []): string {
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
  rows.push([
    `within task (${plural(wt.tasks, 'task')}, ${plural(wt.pairs, 'pass/fail pair')})`,
    '',
    est(wt.auroc, wt.interval),
    '',
    '',
    '',
    // Run length with the intervals it was drawn with, as pPass beside it (they were bare points; audit25).
    est(v.shorter.withinTask.auroc, v.shorter.withinTask.interval),
    flipped(v.shorter.withinTask.auroc, v.shorter.withinTask.interval),
  ]);
  const po = v.end.pooled;
  rows.push([
    `pooled (source alone: ${f3(po.sourceOnly)})`,
    `${po.nPass} / ${po.nFail}`,
    est(po.auroc, po.interval),
    '',
    '',
    '',
    est(v.shorter.pooled.auroc, v.shorter.pooled.interval),
    flipped(v.shorter.pooled.auroc, v.shorter.pooled.interval),
  ]);
  return renderTable(['source (* not in the mean: < 3 passing or failing)', 'pass / fail', 'pPass at end [95 %]', 't=10 [95 %] (pass/fail)', 't=20', 't=40', 'shorter wins', 'longer wins'], rows);
}

/** ECE per source (recalibrated; and, leaving a source out, before any of its outcomes), mean pPass against the pass rate. */
function calibrationTable(v: ViewEvaluation, uncalibrated?: { ece: Record<string, { ece: number | null }>; checks?: Record<string, { interval: Interval | null }>; weighting: string }): string {
  const checks = v.calibration.checks ?? {};
  const perfect = (s: string) => {
    const c = checks[s];
    return c?.perfect ? `${f3(c.perfect.mean)} (${f3(c.perfect.hi)})` : '-';
  };
  const rows = Object.entries(v.calibration.bySource).map(([s, c]) => [
    s,
    String(c.n),
    f3(c.meanPredicted),
    checks[s] === undefined ? f3(c.observedRate) : est(c.observedRate, checks[s].passRate),
    checks[s] === undefined ? f3(c.ece) : est(c.ece, checks[s].interval),
    perfect(s),
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
      ...(uncalibrated ? [`ECE before any outcome of the source: the default model's map fitted without it (--default-map ${uncalibrated.weighting}) [95 %]`] : []),
    ],
    rows,
  );
}

/** Fewest runs of a source behind its per-bin reliability rows. */
const RELIABILITY_MIN_RUNS = 20;

/** The reliability diagram of each source with 20 runs or more (bins with runs; observed rate with its Wilson interval). */
function reliabilityTable(v: ViewEvaluation): string {
  const rows: string[][] = [];
  for (const [s, c] of Object.entries(v.calibration.bySource)) {
    if (c.n < RELIABILITY_MIN_RUNS) continue;
    for (const b of c.bins) if (b.n > 0) rows.push([s, `${b.lo.toFixed(1)}-${b.hi.toFixed(1)}`, String(b.n), f3(b.predicted), `${f3(b.observed)}${iv(b.interval)}`]);
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

function bestOfNTable(v: ViewEvaluation): string {
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
const resolvedCell = (resolved: number, rate: number | null, interval: Interval | null): string => `${resolved.toFixed(1)}${rate === null ? '' : ` (${f3(rate)}${interval ? iv(interval) : ' [-]'})`}`;

/** A candidate as printed: its set and penalty, and its within-task pairwise weight when it has one. */
const candidateName = (c: CandidateName): string => `${c.set}, lambda ${c.lambda}${c.pairWeight !== undefined ? `, pair weight ${c.pairWeight}` : ''}`;

function selectionText(e: TrainEvaluation): string {
  const s = e.selection;
  const rows = s.candidates.map((c) => [candidateName(c), ...s.steering.map((x) => f3(c.bySource[x])), f3(c.mean), c.withinTask ? `${f3(c.withinTask.auroc)} (${c.withinTask.pairs} pairs)` : '-']);
  const kRows = s.kappas.map((k) => [k.kappa === null ? 'pooled weights only' : `own weights, kappa ${k.kappa}`, ...s.steering.map((x) => f3(k.bySource[x])), f3(k.mean)]);
  const c = s.chosen;
  // A mean over one steering source is that source's column again: labelled with its n either way.
  const meanHeader = `mean (${s.steering.length} source${s.steering.length === 1 ? '' : 's'})`;
  const without = Object.entries(s.chosenWithout).map(([src, w]) => `${src}: ${candidateName(w)}`);
  return [
    `configuration: ${s.note}; leave one source out for the features and the penalty, task-disjoint folds for per-source weights`,
    renderTable(['candidate (leave one source out, AUROC at end)', ...s.steering, meanHeader, 'within task (not chosen by)'], rows),
    renderTable(['per-source weights (task-disjoint folds, AUROC at end)', ...s.steering, meanHeader], kRows),
    `chosen: ${c.set} (${c.features.length} features), lambda ${c.lambda}${c.pairWeight !== undefined ? `, pair weight ${c.pairWeight}` : ''}, ${c.kappa === null ? 'pooled weights' : `own weights with kappa ${c.kappa}`}; end weight ${c.endWeight}, source intercept sd ${c.groupSd}`,
    without.length > 0 ? `chosen on the runs without each steering source (its leave-one-source-out figures use these): ${without.join('; ')}\n` : '',
  ].join('\n');
}

const rule = (p: Pick<StopPoint, 'floor' | 'minSteps'>) => `pPass < ${p.floor} after ${p.minSteps}`;

/** The choice made on the other task folds and applied to each: the figure the choice did not see. */
function apartText(a: StopApart): string {
  const c = a.counts;
  const chosen = a.chosen.map((p, f) => `fold ${f + 1}: ${p === null ? 'none' : rule(p)}`).join(', ');
  const worst = a.worstSource === null ? '' : `; worst source ${a.worstSource.source} ${a.worstSource.passingStopped} / ${a.worstSource.passing}`;
  return (
    `chosen on ${a.folds - 1} task folds and applied to the other, each fold in turn (${chosen}): passing runs stopped ${c.passingStopped} / ${c.passing} ` +
    `(<= ${pct(c.passingUpper)}), failing ${c.failingStopped} / ${c.failing}, failing tokens saved ${pct(a.failingTokensSaved)}${worst}; ${a.holds ? 'holds' : 'does not hold'}`
  );
}

function stopText(st: StopEvaluation & { apart?: StopApart }): string {
  const order = [...st.points].sort((a, b) => (a.passingUpper ?? 1) - (b.passingUpper ?? 1) || b.failingTokensSaved - a.failingTokensSaved);
  const shown = order.slice(0, 8);
  if (st.recommended !== null && !shown.includes(st.recommended)) shown.push(st.recommended);
  const rows = shown.map((p) => [
    `${rule(p)}${p === st.recommended ? '  <- recommended' : ''}`,
    `${p.passingStopped} / ${p.passing} (<= ${pct(p.passingUpper)})`,
    `${p.failingStopped} / ${p.failing}`,
    pct(p.failingStepsSaved),
    pct(p.failingTokensSaved),
    p.worstSource === null ? '-' : `${p.worstSource.source} ${p.worstSource.passingStopped} / ${p.worstSource.passing}${p.withinSources ? '' : ' (over)'}`,
    p.supported ? 'yes' : 'no',
  ]);
  const r = st.recommended;
  const verdict =
    r === null
      ? `no lowForecast stop is supported: ${st.reason}; nothing is recommended (lowForecast stays off)`
      : `recommended (also in the file's evaluation.forecast.stop.recommended): {"lowForecast": {"floor": ${r.floor}, "minSteps": ${r.minSteps}, "severity": "stop"}}: ${st.reason}`;
  const by = Object.entries(st.bySource).map(([s, c]) => [s, `${c.passingStopped} / ${c.passing}`, `${c.failingStopped} / ${c.failing}`]);
  return [
    `the lowForecast stop on the task-fold pPass (supported = the ${pct(st.spec.confidence)} upper bound of passing runs stopped within ${pct(st.bound)}, ` +
      `at most ${pct(st.sourceMax)} of each source's passing runs stopped, a failing run stopped, at least ${st.minPassing} passing runs; the rule calibrate --portable uses):`,
    renderTable(['rule', 'passing stopped (upper bound)', 'failing stopped', 'failing steps saved', 'failing tokens saved', 'worst source: passing stopped', 'supported'], rows),
    verdict,
    ...(st.apart === undefined || (r === null && st.apart.chosen.every((c) => c === null)) ? [] : [apartText(st.apart)]),
    ...(by.length > 0 ? [renderTable(['source', 'passing stopped', 'failing stopped'], by)] : []),
  ].join('\n');
}

/** The forecaster's whole report: headline, the two views, calibration, best-of-N, the choice, the stop. */
export function forecastText(e: TrainEvaluation, models: readonly ForecastModel[]): string {
  const lo = e.leaveSourceOut;
  const tf = e.taskFolds;
  // kappa is chosen on the task-fold scores themselves and the features on these runs (select.ts): not held out.
  const caveat = e.selection.kappas.length > 1 ? "; kappa chosen on these folds' scores, the features on these runs: optimistic" : '';
  const head = (name: string, v: ViewEvaluation) =>
    `${name}: mean within-source AUROC of pPass ${est(v.end.withinSource.mean, v.end.withinSource.interval)} over ${plural(v.end.withinSource.counted, 'source')} (run length alone: shorter wins ${est(v.shorter.withinSource.mean, v.shorter.withinSource.interval)}, longer wins ${flipped(v.shorter.withinSource.mean, v.shorter.withinSource.interval)})`;
  return [
    'forecaster (pPass at the end of each run, passing = positive; AUROC with its 95 % bootstrap interval, tasks resampled, and n passing / failing runs):',
    head("headline, leave one source out (each source ranked by a model fitted without it and without its runs' tasks)", lo),
    `${head(`task-disjoint folds (${e.folds} folds, new tasks of the sources trained on${caveat})`, tf)}\n`,
    'leave one source out, per source (pPass recalibrated per source on its own other task folds):',
    separationTable(lo, lo.notScored),
    'calibration, leave one source out:',
    calibrationTable(lo, { ece: lo.uncalibrated, ...(lo.uncalibratedChecks ? { checks: lo.uncalibratedChecks } : {}), weighting: e.defaultMap }),
    'reliability, leave one source out:',
    reliabilityTable(lo),
    'best-of-N, leave one source out (per source + task with 2 runs or more: resolved tasks of the top-pPass pick, a random pick, an oracle):',
    bestOfNTable(lo),
    `task-disjoint folds, per source (${e.folds} folds, seed ${e.seed}${caveat}):`,
    separationTable(tf),
    // The caveat of the task-fold headline applies to every figure of those folds, best-of-N's gap included.
    `calibration, task-disjoint folds${caveat ? ` (${caveat.slice(2)})` : ''}:`,
    calibrationTable(tf),
    `best-of-N, task-disjoint folds${caveat ? ` (${caveat.slice(2)})` : ''}:`,
    bestOfNTable(tf),
    selectionText(e),
    stopText(e.stop),
    `models written: the default (any other source) and ${models.length - 1} per source\n`,
  ].join('\n');
}

/** The leave-one-source-out table of the reference-free composite, then each signal alone. */
export function priorWeightsText(r: PriorWeightsReport): string {
  // With the intervals `train` draws (prior-intervals.ts); a report without them prints bare points.
  const at = (x: number | null, i: Interval | null | undefined) => (r.intervals === undefined ? f3(x) : est(x, i));
  const rows = r.sources.map((s) => [
    s.source,
    `${s.runs} (${s.passing})`,
    at(s.heldOut, r.intervals?.bySource[s.source]?.heldOut),
    at(s.lengthAlone, r.intervals?.bySource[s.source]?.lengthAlone),
    at(s.paper, r.intervals?.bySource[s.source]?.paper),
    at(s.final, r.intervals?.bySource[s.source]?.final),
    r.heldOutPossible
      ? `${Object.entries(s.chosen.weights)
          .filter(([, w]) => w > 0)
          .map(([k, w]) => `${k} ${w}`)
          .join(', ')}; L ${s.chosen.brevitySteps}`
      : '-',
  ]);
  const names = SINGLE_SIGNALS;
  const figures = r.sources.map((s) => ({ source: s.source, figures: [s.heldOut, s.lengthAlone, s.paper, s.final, ...names.map((k) => s.single[k])] }));
  const label = meanLabel(figures);
  const m = r.intervals?.mean;
  if (label !== null) rows.push([label, '', at(r.mean.heldOut, m?.heldOut), at(r.mean.lengthAlone, m?.lengthAlone), at(r.mean.paper, m?.paper), at(r.mean.final, m?.final), '']);
  const single = r.sources.map((s) => [s.source, ...names.map((k) => at(s.single[k], r.intervals?.bySource[s.source]?.[k])), at(s.lengthAlone, r.intervals?.bySource[s.source]?.lengthAlone)]);
  if (label !== null) single.push([label, ...names.map((k) => at(r.mean.single[k], m?.[k])), at(r.mean.lengthAlone, m?.lengthAlone)]);
  const note = noMeanNote(figures);
  const w = r.chosen;
  return [
    `reference-free composite, leave one source out (AUROC within each source${r.intervals === undefined ? '' : ' with its 95 % bootstrap interval, tasks resampled'}; sources under ${r.minRuns} runs or with fewer than 3 passing or failing pooled as "other"; each choice maximises the ${r.objective} on the other sources):`,
    renderTable(['held-out source', 'runs (pass)', 'chosen without it', 'length alone', 'paper weights', 'chosen on all', 'weights chosen without it'], rows),
    `each signal alone (AUROC within each source${r.intervals === undefined ? '' : ' with its 95 % bootstrap interval, tasks resampled'}; brevity alone is length alone):`,
    renderTable(['source', ...names, 'length'], single),
    ...(note === null ? [] : [note]),
    ...(r.heldOutPossible ? [] : [oneGroup(r.sources)]),
    `chosen on every source${r.heldOutPossible ? '' : ' (in-sample only: not checked on a held-out source)'}: priorWeights ${JSON.stringify(w.weights)}, brevitySteps ${w.brevitySteps} (a scoring config for serve --config / score --config)\n`,
  ].join('\n');
}

/**
 * Why a leave-one-source-out table has no held-out column: fewer than 2 groups have both passing and failing runs, so
 * weights chosen without one would be chosen on no AUROC at all (every grid point ties).
 */
const oneGroup = (sources: ReadonlyArray<{ source: string; runs: number; passing: number }>) => {
  const both = sources.filter((s) => s.passing > 0 && s.passing < s.runs);
  const others = sources.filter((s) => !both.includes(s)).map((s) => `${s.source} ${s.runs} runs, ${s.passing} passing`);
  const why =
    sources.length === 1
      ? `the runs form one group (${sources[0]!.source}, ${sources[0]!.runs} runs), so no source can be left out`
      : `${both.length === 1 ? `only ${both[0]!.source} has` : 'no group has'} both passing and failing runs (${others.join('; ')}), so weights chosen without a source would be chosen on no AUROC`;
  return `not held out: ${why}; "chosen on all" is measured on the runs it was chosen on`;
};

const weightsOf = (w: Weights) =>
  Object.entries(w)
    .filter(([, x]) => x > 0)
    .map(([k, x]) => `${k} ${x}`)
    .join(', ');

/** The leave-one-source-out table of the PTA-mode composite beside each signal alone and the weights in force. */
export function ptaWeightsText(r: PtaWeightsReport, shipped: Weights): string {
  // With the intervals `train` draws (pta-intervals.ts); a report without them prints bare points.
  const at = (x: number | null, i: Interval | null | undefined) => (r.intervals === undefined ? f3(x) : est(x, i));
  const rows = r.sources.map((s) => {
    const i = r.intervals?.bySource[s.source];
    return [
      s.source,
      `${s.runs} (${s.passing})`,
      at(s.heldOut, i?.heldOut),
      at(s.shipped, i?.shipped),
      at(s.final, i?.final),
      ...PTA_SIGNALS.map((k) => at(s.single[k], i?.[k])),
      at(s.lengthAlone, i?.lengthAlone),
      r.heldOutPossible ? weightsOf(s.chosen) : '-',
    ];
  });
  const figures = r.sources.map((s) => ({ source: s.source, figures: [s.heldOut, s.shipped, s.final, ...PTA_SIGNALS.map((k) => s.single[k]), s.lengthAlone] }));
  const label = meanLabel(figures);
  const note = noMeanNote(figures);
  const m = r.intervals?.mean;
  if (label !== null)
    rows.push([
      label,
      '',
      at(r.mean.heldOut, m?.heldOut),
      at(r.mean.shipped, m?.shipped),
      at(r.mean.final, m?.final),
      ...PTA_SIGNALS.map((k) => at(r.mean.single[k], m?.[k])),
      at(r.mean.lengthAlone, m?.lengthAlone),
      '',
    ]);
  const verdict = r.holds
    ? `holds: held out, the composite is at least every single signal on every source; chosen on every source: weights ${JSON.stringify(r.chosen)} (a scoring config's "weights")`
    : `does not hold: held out, a single signal beats the composite on some source (or fewer than 2 sources to leave out); the weights in force (${weightsOf(shipped)}) stay`;
  return [
    `PTA-mode composite, leave one source out (runs against the PTA of the other passing runs of their task; AUROC within each source${r.intervals === undefined ? '' : ' with its 95 % bootstrap interval, tasks resampled'}; sources under ${r.minRuns} runs or with fewer than 3 passing or failing pooled as "other"; each choice maximises the ${r.objective} on the other sources):`,
    renderTable(['held-out source', 'runs (pass)', 'chosen without it', 'weights in force', 'chosen on all', ...PTA_SIGNALS, 'length', 'weights chosen without it'], rows),
    ...(note === null ? [] : [note]),
    ...(r.heldOutPossible ? [] : [oneGroup(r.sources)]),
    `${verdict}\n`,
  ].join('\n');
}
