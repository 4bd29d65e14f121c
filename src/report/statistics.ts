/**
 * The report's statistics, measured as docs/method.md section 16 defines (src/core/stats): per score,
 * separation within source (the headline), within task and pooled beside source-only, with pooled KS;
 * best-of-N selection per source + task; χ² of model × Lucky category.
 */
import { plural } from '../core/plural.js';
import { bestOfN, pickGroups } from '../core/stats/best-of-n.js';
import type { BootstrapOptions } from '../core/stats/bootstrap.js';
import { calibrationCheck } from '../core/stats/calibration-check.js';
import { calibrationError } from '../core/stats/calibration-error.js';
import { chiSquareIndependence } from '../core/stats/chi-square.js';
import { ksTwoSample } from '../core/stats/ks.js';
import { separation as separationOf, type ScoredOutcome, type SeparationOptions } from '../core/stats/separation.js';
import type { CalibrationRow, ChiSquareRow, ReferenceKind, SelectionRow, SeparationRow, TrajectoryRow } from './types.js';

const SIGNALS: ReadonlyArray<SeparationRow['signal']> = ['total', 'struct', 'cov', 'coh', 'temp', 'pPass'];

/** The value of one score of a row (null: not scored, or that score is not defined for its reference). */
export function scoreOf(r: TrajectoryRow, signal: SeparationRow['signal']): number | null {
  if (signal === 'pPass') return r.pPass ?? null;
  return r.score?.[signal] ?? null;
}

/** The scored runs with a pass/fail outcome, as the shared statistics take them. */
export function scoredOutcomes(rows: readonly TrajectoryRow[], signal: SeparationRow['signal']): ScoredOutcome[] {
  return rows.flatMap((r) => {
    const score = scoreOf(r, signal);
    if (score === null || (r.outcome !== 'pass' && r.outcome !== 'fail')) return [];
    return [{ source: r.source, task: r.task, pass: r.outcome === 'pass', score }];
  });
}

/**
 * Separation of every score the runs have (pPass only with a forecaster), labelled with the runs measured
 * (`reference`). A score no run has (struct and cov of reference-free runs) gets no row.
 */
export function separation(rows: readonly TrajectoryRow[], options: SeparationOptions = {}, reference: SeparationRow['reference'] = 'all'): SeparationRow[] {
  return SIGNALS.flatMap((signal) => {
    const runs = scoredOutcomes(rows, signal);
    if (runs.length === 0 && signal !== 'total') return [];
    // The source-only AUROC with its interval here (the report prints it beside the pooled one; audit28).
    const s = separationOf(runs, { ...options, sourceOnlyInterval: true });
    const ks = ksTwoSample(
      runs.filter((r) => r.pass).map((r) => r.score),
      runs.filter((r) => !r.pass).map((r) => r.score),
    );
    return [{ signal, reference, nPass: s.pooled.nPass, nFail: s.pooled.nFail, ...s, ksD: ks?.d ?? null, ksP: ks?.p ?? null, ksMethod: ks?.method ?? null }];
  });
}

/** The best-of-N groups of `rows` by one score, counted by the kind of reference their runs met (as bestOfN groups them). */
export function groupsByReference(rows: readonly TrajectoryRow[], score: SelectionRow['score']): Record<ReferenceKind, number> {
  const count = (kind: ReferenceKind) =>
    pickGroups(
      scoredOutcomes(
        rows.filter((r) => r.reference?.kind === kind),
        score,
      ),
    ).length;
  return { 'in-folder': count('in-folder'), external: count('external'), 'reference-free': count('reference-free') };
}

/**
 * Of the pPass best-of-N's runs (those in a group: one source, one task, >= 2 runs with an outcome), how many the
 * forecaster was trained on; null when no run could be checked (its file lists no training runs).
 */
export function inSampleRuns(rows: readonly TrajectoryRow[]): number | null {
  const withOutcome = rows.filter((r) => r.pPass !== undefined && r.task !== null && (r.outcome === 'pass' || r.outcome === 'fail'));
  const key = (r: TrajectoryRow) => JSON.stringify([r.source, r.task]);
  const sizes = new Map<string, number>();
  for (const r of withOutcome) sizes.set(key(r), (sizes.get(key(r)) ?? 0) + 1);
  const grouped = withOutcome.filter((r) => sizes.get(key(r))! >= 2);
  if (grouped.length > 0 && grouped.every((r) => r.pPassInSample === undefined)) return null;
  return grouped.filter((r) => r.pPassInSample === true).length;
}

/** Best-of-N by the composite (and pPass when runs have one): over every source, then within each source that has a group. */
export function selection(rows: readonly TrajectoryRow[], options: BootstrapOptions = {}): SelectionRow[] {
  const scores: Array<SelectionRow['score']> = rows.some((r) => r.pPass !== undefined) ? ['total', 'pPass'] : ['total'];
  return scores.flatMap((score) => {
    const runs = scoredOutcomes(rows, score);
    const inSample = (of: readonly TrajectoryRow[]) => (score === 'pPass' ? { inSampleRuns: inSampleRuns(of) } : {});
    const all: SelectionRow = { score, source: 'all', ...bestOfN(runs, options), groupsByReference: groupsByReference(rows, score), ...inSample(rows) };
    const sources = [...new Set(runs.map((r) => r.source))].sort();
    const per = sources
      .map((source) => ({
        score,
        source,
        ...bestOfN(
          runs.filter((r) => r.source === source),
          options,
        ),
        groupsByReference: groupsByReference(
          rows.filter((r) => r.source === source),
          score,
        ),
        ...inSample(rows.filter((r) => r.source === source)),
      }))
      .filter((r) => r.groups > 0);
    return [all, ...per];
  });
}

/** Calibration of pPass per source, then over all runs (none without a forecaster). */
export function calibration(rows: readonly TrajectoryRow[], options: BootstrapOptions = {}): CalibrationRow[] | undefined {
  const runs = scoredOutcomes(rows, 'pPass');
  if (runs.length === 0) return undefined;
  const row = (source: string, rs: typeof runs): CalibrationRow => {
    const preds = rs.map((r) => ({ task: r.task, p: r.score, pass: r.pass }));
    const c = calibrationError(preds);
    return { source, ...calibrationCheck(preds, options), meanPredicted: c.meanPredicted, observedRate: c.observedRate, bins: c.bins };
  };
  const sources = [...new Set(runs.map((r) => r.source))].sort();
  return [
    ...sources.map((s) =>
      row(
        s,
        runs.filter((r) => r.source === s),
      ),
    ),
    row('all', runs),
  ];
}

/** χ² test of independence of model × Lucky category over the scored Lucky passes. */
export function luckyChiSquare(rows: readonly TrajectoryRow[]): ChiSquareRow {
  const lucky = rows.filter((r) => r.outcome === 'pass' && r.lucky !== undefined);
  const models = [...new Set(lucky.map((r) => r.source))].sort();
  const cats = [...new Set(lucky.map((r) => r.lucky!))].sort();
  const table = models.map((m) => cats.map((c) => lucky.filter((r) => r.source === m && r.lucky === c).length));
  const res = chiSquareIndependence(table);
  if (!res) {
    return {
      rows: models,
      cols: cats,
      table,
      statistic: null,
      dof: null,
      p: null,
      note: `needs Lucky passes of at least 2 models in at least 2 categories (have ${plural(lucky.length, 'Lucky pass', 'Lucky passes')}, ${plural(models.length, 'model')}, ${plural(cats.length, 'category', 'categories')})`,
    };
  }
  return {
    rows: models,
    cols: cats,
    table,
    statistic: res.statistic,
    dof: res.dof,
    p: res.p,
    ...(res.expected.flat().some((e) => e < 5) ? { note: 'some expected counts are below 5: the χ² approximation is rough' } : {}),
  };
}
