/** Human-readable output of `steplens train`. */
import type { ForecastEvaluation, HorizonAurocs } from '../core/forecast/evaluate.js';
import { SINGLE_SIGNALS, type PriorWeightsReport } from '../core/forecast/prior-weights.js';
import { renderTable } from './table.js';

const f3 = (x: number | null | undefined): string => (x === null || x === undefined ? '-' : x.toFixed(3));

function horizonRow(name: string, h: HorizonAurocs): string[] {
  return [name, `${h.runs} (${h.passing})`, ...['10', '20', '40'].map((t) => `${f3(h.at[t]?.auroc)} (${h.at[t]?.runs ?? 0})`), f3(h.end), f3(h.lengthAlone), f3(h.logLoss), f3(h.brier)];
}

/** The held-out forecast table: overall and per source, then the reliability table. */
export function forecastText(e: ForecastEvaluation, title: string): string {
  const header = ['source', 'runs (pass)', 'AUROC t=10 (runs)', 't=20', 't=40', 'at end', 'length alone', 'log loss', 'Brier'];
  const rows = [horizonRow('all', e.overall), ...Object.entries(e.bySource).map(([s, h]) => horizonRow(s, h))];
  const rel = e.reliability.filter((b) => b.runs > 0).map((b) => [`${b.from.toFixed(1)}-${b.to.toFixed(1)}`, String(b.runs), f3(b.meanPredicted), f3(b.observed)]);
  const st = e.stop;
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  const stopRows = [...st.points]
    .sort((a, b) => a.passingStopped - b.passingStopped || b.failingTokensSaved - a.failingTokensSaved)
    .slice(0, 8)
    .map((p) => [`pPass < ${p.floor} after ${p.minSteps}`, `${p.passingStopped} / ${st.passing}`, `${p.failingStopped} / ${st.failing}`, pct(p.failingStepsSaved), pct(p.failingTokensSaved)]);
  const chosen =
    st.chosen === null
      ? `no lowForecast point stops a failing run with at most ${pct(st.maxFalseStop)} of passing runs stopped`
      : `best lowForecast stop within ${pct(st.maxFalseStop)} false stops: {"lowForecast": {"floor": ${st.chosen.floor}, "minSteps": ${st.chosen.minSteps}, "severity": "stop"}}`;
  return [
    `${title}: held out, ${e.folds} task-disjoint folds (seed ${e.seed}); AUROC at t over runs that reached t`,
    renderTable(header, rows),
    'reliability at the end of each run (held out):',
    renderTable(['pPass bin', 'runs', 'mean pPass', 'passed'], rel),
    'the lowForecast stop rule on the held-out pPass (fewest false stops first):',
    renderTable(['rule', 'passing stopped', 'failing stopped', 'failing steps saved', 'failing tokens saved'], stopRows),
    `${chosen}\n`,
  ].join('\n');
}

/** The leave-one-source-out table of the reference-free composite, then each signal alone. */
export function priorWeightsText(r: PriorWeightsReport): string {
  const rows = r.sources.map((s) => [
    s.source,
    `${s.runs} (${s.passing})`,
    f3(s.heldOut),
    f3(s.lengthAlone),
    f3(s.paper),
    f3(s.final),
    `${Object.entries(s.chosen.weights)
      .filter(([, w]) => w > 0)
      .map(([k, w]) => `${k} ${w}`)
      .join(', ')}; L ${s.chosen.brevitySteps}`,
  ]);
  rows.push(['mean', '', f3(r.mean.heldOut), f3(r.mean.lengthAlone), f3(r.mean.paper), f3(r.mean.final), '']);
  const names = SINGLE_SIGNALS;
  const single = r.sources.map((s) => [s.source, ...names.map((k) => f3(s.single[k])), f3(s.lengthAlone)]);
  single.push(['mean', ...names.map((k) => f3(r.mean.single[k])), f3(r.mean.lengthAlone)]);
  const w = r.chosen;
  return [
    `reference-free composite, leave one source out (AUROC within each source; sources under ${r.minRuns} runs or with one outcome pooled as "other"; each choice maximises the ${r.objective} on the other sources):`,
    renderTable(['held-out source', 'runs (pass)', 'chosen without it', 'length alone', 'paper weights', 'chosen on all', 'weights chosen without it'], rows),
    'each signal alone (AUROC within each source; brevity alone is length alone):',
    renderTable(['source', ...names, 'length'], single),
    `chosen on every source: priorWeights ${JSON.stringify(w.weights)}, brevitySteps ${w.brevitySteps} (a scoring config for serve --config / score --config)\n`,
  ].join('\n');
}
