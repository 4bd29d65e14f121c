/** What `steplens score` prints for one scored trajectory: the `--json` document (cli.md) and the readable report. */
import type { PriorTerm } from '../core/composite.js';
import type { Reference, TrajectoryReport } from '../core/scorer-api.js';
import type { Instance } from './instances.js';
import { formatNumber, renderTable } from './table.js';

/**
 * Scored against the prior: `prior` of the `--json` document, the terms the reference-free total is made of (those
 * with weight, heaviest first): `total = 100 · Σ weights[k] · signals[k] / Σ weights` (docs/method.md section 8).
 */
export function priorDocument(terms: readonly PriorTerm[]) {
  return {
    weights: Object.fromEntries(terms.map((t) => [t.name, t.weight])),
    signals: Object.fromEntries(terms.map((t) => [t.name, t.value])),
  };
}

/** The `score --json` document (cli.md); `prior` (reference-free scoring only) is the terms of its total. */
export function scoreDocument(report: TrajectoryReport, task: string | undefined, prior?: readonly PriorTerm[], pPassInSample?: boolean) {
  return {
    ...(task ? { task } : {}),
    score: report.score,
    ...(prior !== undefined ? { prior: priorDocument(prior) } : {}),
    tier: report.tier,
    ...(report.lucky ? { lucky: report.lucky } : {}),
    waste: report.waste,
    signals: report.signals.map((s) => ({ kind: s.kind, severity: s.severity, t: s.t, steps: s.steps, message: s.message })),
    steps: report.steps,
    stages: report.stages,
    reference: report.reference,
    unknown: report.unknown,
    ...(report.pPass !== undefined ? { pPass: report.pPass } : {}),
    // As POST /v1/score and rank --json: whether the forecaster was trained on this run (absent: it lists no runs).
    ...(report.pPass !== undefined && pPassInSample !== undefined ? { pPassInSample } : {}),
  };
}

const show = (v: number | null) => (v === null ? '-' : formatNumber(v));

/**
 * The readable report of one trajectory. Against the prior (`prior`: the terms of its total) the header names the
 * reference-free composite's weights in effect and the line below the score its weighted signals, not Φcoh and Φtemp
 * alone: with the shipped weights most of the total is Φbrevity and Φedit.
 */
export function humanReport(report: TrajectoryReport, task: string | undefined, passed: boolean | undefined, prior?: readonly PriorTerm[], pPassInSample?: boolean): string {
  const s = report.score;
  const ref =
    report.reference.kind === 'pta'
      ? `PTA v${report.reference.version} (${report.reference.paths} paths)`
      : prior !== undefined
        ? `prior (reference-free composite: ${prior.map((t) => `${t.name} ${t.weight}`).join(', ')}; struct and cov need a PTA; docs/forecast.md)`
        : 'prior (reference-free composite; struct and cov need a PTA; docs/forecast.md)';
  const signals =
    report.reference.kind === 'pta' || prior === undefined
      ? `  struct ${show(s.struct)}  cov ${show(s.cov)}  coh ${show(s.coh)}  temp ${show(s.temp)}`
      : `  ${prior.map((t) => `${t.name} ${show(t.value)}`).join('  ')}`;
  const out = [
    `${task ?? 'trajectory'}: ${report.steps} steps, reference ${ref}`,
    `score ${formatNumber(s.total)}  tier ${report.tier}${report.lucky ? ` (${report.lucky})` : ''}${passed === undefined ? ' (projected: outcome unknown; --passed / --failed give the real tier)' : ''}`,
    signals,
    `stages ${report.stages}`,
    ...(report.pPass !== undefined ? [`forecast P(pass) ${report.pPass.toFixed(3)}${pPassInSample === true ? ' (in-sample: the forecaster was trained on this run, so optimistic)' : ''}`] : []),
  ];
  if (report.signals.length) {
    out.push(
      '',
      'signals:',
      renderTable(
        ['t', 'kind', 'severity', 'steps'],
        report.signals.map((x) => [x.t, x.kind, x.severity, x.steps.join(',')]),
      ).trimEnd(),
    );
  }
  if (report.waste.length) {
    const rows = report.waste.map((w) => [w.category, w.tool, w.wastedSteps, w.wastedTokens, w.steps.join(',')]);
    out.push('', 'waste:', renderTable(['category', 'tool', 'wasted steps', 'wasted tokens', 'at'], rows).trimEnd());
  }
  return out.join('\n') + '\n';
}

/** The warning when the run's task is not the PTA's (scoring against another task's reference is allowed, never silent). */
export function taskMismatch(file: string, x: Instance, task: string | undefined, forced: boolean, ptaFile: string, reference: Reference): string | undefined {
  if (reference.kind !== 'pta' || task === undefined || task === reference.pta.task) return undefined;
  const whose = forced ? `--task ${task}` : `${file}${x.id !== task ? ` (${x.id})` : ''} is a run of task ${task}`;
  return `warning: ${whose}, but ${ptaFile} is the reference of task ${reference.pta.task}; scored against it anyway` + (forced ? '' : ` (--task ${reference.pta.task} says the run is of that task)`);
}
