/** Human-readable output of `steplens train`'s forecaster: every AUROC with its n (passing / failing) and interval, the headline within source. */
import type { ViewEvaluation } from '../core/forecast/evaluate.js';
import type { ForecastModel } from '../core/forecast/model.js';
import { plural } from '../core/plural.js';
import type { StopEvaluation, StopPoint } from '../core/forecast/stop-eval.js';
import type { StopApart } from '../core/forecast/stop-apart.js';
import type { CandidateName, TrainEvaluation } from '../core/forecast/train.js';
import { bestOfNTable, calibrationTable, reliabilityTable, separationTable } from './train-forecast-tables.js';
import { est, f3, flipped, pct } from './train-cells.js';
import { renderTable } from './table.js';
import { wilsonInterval, type Interval } from '../core/stats/interval.js';

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
/** A share's interval in percent, one decimal as pct (`[-]`: none; the saved shares resample the failing runs). */
const pctIv = (i: Interval | null | undefined) => (i === null || i === undefined ? '[-]' : `[${(100 * i.lo).toFixed(1)} %, ${(100 * i.hi).toFixed(1)} %]`);

/** The choice made on the other task folds and applied to each: the figure the choice did not see. */
function apartText(a: StopApart): string {
  const c = a.counts;
  const chosen = a.chosen.map((p, f) => `fold ${f + 1}: ${p === null ? 'none' : rule(p)}`).join(', ');
  const worst = a.worstSource === null ? '' : `; worst source ${a.worstSource.source} ${a.worstSource.passingStopped} / ${a.worstSource.passing}`;
  return (
    `chosen on ${a.folds - 1} task folds and applied to the other, each fold in turn (${chosen}): passing runs stopped ${c.passingStopped} / ${c.passing} ` +
    `(<= ${pct(c.passingUpper)}), failing ${c.failingStopped} / ${c.failing} (${pct(c.failing === 0 ? null : c.failingStopped / c.failing)} ${pctIv(c.failing === 0 ? null : wilsonInterval(c.failingStopped, c.failing))}), failing tokens saved ${pct(a.failingTokensSaved)} ${pctIv(a.failingTokensSavedInterval)}${worst}; ${a.holds ? 'holds' : 'does not hold'}`
  );
}

function stopText(st: StopEvaluation & { apart?: StopApart }): string {
  const order = [...st.points].sort((a, b) => (a.passingUpper ?? 1) - (b.passingUpper ?? 1) || b.failingTokensSaved - a.failingTokensSaved);
  const shown = order.slice(0, 8);
  if (st.recommended !== null && !shown.includes(st.recommended)) shown.push(st.recommended);
  const rows = shown.map((p) => [
    `${rule(p)}${p === st.recommended ? '  <- recommended' : ''}`,
    `${p.passingStopped} / ${p.passing} (<= ${pct(p.passingUpper)})`,
    `${p.failingStopped} / ${p.failing} (${pct(p.failing === 0 ? null : p.failingStopped / p.failing)} ${pctIv(p.failing === 0 ? null : wilsonInterval(p.failingStopped, p.failing))})`,
    `${pct(p.failingStepsSaved)} ${pctIv(p.failingStepsSavedInterval)}`,
    `${pct(p.failingTokensSaved)} ${pctIv(p.failingTokensSavedInterval)}`,
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
    renderTable(
      ['rule', 'passing stopped (upper bound)', 'failing stopped [Wilson 95 %]', 'failing steps saved [95 %]', 'failing tokens saved [95 %]', 'worst source: passing stopped', 'supported'],
      rows,
    ),
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
