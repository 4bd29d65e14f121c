/**
 * The weights fit of `steplens calibrate --weights`: each candidate's AUROC pooled over every source's runs with a
 * reference (no interval), then within each source with its n and interval, and their mean over sources (issue 26:
 * a pooled AUROC also rewards telling sources apart, so it is never printed alone).
 */
import { WEIGHT_COLUMNS, type AurocWithInterval, type WeightsReport } from '../core/calibrate/index.js';
import type { Weights } from '../core/config.js';
import { plural } from '../core/plural.js';
import { renderTable } from './table.js';

const w4 = (w: Weights) => `struct ${w.struct.toFixed(2)} / cov ${w.cov.toFixed(2)} / coh ${w.coh.toFixed(2)} / temp ${w.temp.toFixed(2)}`;
const au = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(3));
/** An AUROC with its interval; `[-]` where none could be drawn (a side of one run, fewer than 5 tasks, one value). */
const est = (a: AurocWithInterval) => (a.auroc === null ? '-' : `${au(a.auroc)} ${a.interval ? `[${a.interval.lo.toFixed(2)}, ${a.interval.hi.toFixed(2)}]` : '[-]'}`);
const COLUMNS = ['AUROC fitted (held-out)', 'fitted (in-sample)', 'paper', 'struct alone', 'cov alone', 'coh alone', 'temp alone'];

/** The within-source table of the weights' candidates (empty when the report has none). */
function withinSourceText(w: WeightsReport): string[] {
  const ws = w.auroc.reference.withinSource;
  if (ws === undefined) return [];
  const rows = ws.sources.map((s) => [`${s.source}${s.counted ? '' : ' *'}`, `${s.passing + s.failing} (${s.passing} / ${s.failing})`, ...WEIGHT_COLUMNS.map((c) => est(s.aurocs[c]))]);
  rows.push([`mean within source (${plural(ws.counted, 'source')})`, '', ...WEIGHT_COLUMNS.map((c) => (ws.counted === 0 ? '-' : est(ws.mean[c])))]);
  return [
    `within source (runs with a reference; 95 % bootstrap interval, the source's tasks resampled; * fewer than ${ws.minPerClass} passing or ${ws.minPerClass} failing runs: not in the mean):`,
    renderTable(['source', 'runs (pass / fail)', ...COLUMNS], rows).trimEnd(),
  ];
}

/** The weights fit: held-out AUROC of the fit vs the paper's weights and each signal alone, pooled and within source. */
export function weightsText(w: WeightsReport): string {
  // With references only: these weights weigh no reference-free score (those get priorWeights), so a row for that
  // mode would show gains or losses no scorer has (json keeps it, labelled so in WeightsReport).
  const a = w.auroc.reference;
  const rows = [
    [
      'with references',
      `${a.runs} (${a.passing} / ${a.failing})`,
      au(a.fittedHeldOut),
      au(a.fittedInSample),
      au(a.paper),
      au(a.signals.struct),
      au(a.signals.cov),
      au(a.signals.coh),
      au(a.signals.temp),
    ],
  ];
  return [
    `weights: grid over the simplex (step ${w.step}), leave-one-task-out over ${plural(w.runs.tasks, 'task')} (${w.runs.passing} passing, ${w.runs.failing} failing runs, ${w.runs.withReference} with a reference)`,
    `paper:  ${w4(w.paper)}`,
    `fitted: ${w4(w.fitted)} (on all runs)`,
    `AUROCs pooled over every source's runs with a reference, no interval (a pooled AUROC also rewards telling sources apart; the fit's difference from the paper's weights has an interval, below):`,
    renderTable(['mode', 'runs (pass / fail)', ...COLUMNS], rows).trimEnd(),
    ...withinSourceText(w),
    `recommended: ${w.decision} weights (${w.reason}); the ${w.auroc.referenceFree.runs} runs scored reference-free are weighed by priorWeights (steplens train), not by these`,
    '',
  ].join('\n');
}
