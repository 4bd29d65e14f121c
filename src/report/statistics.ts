/** The report's statistics: AUROC + KS per score component, χ² of model × Lucky category. */
import { modelLabel } from './identity.js';
import { auroc } from '../core/stats/auroc.js';
import { chiSquareIndependence } from '../core/stats/chi-square.js';
import { ksTwoSample } from '../core/stats/ks.js';
import type { ChiSquareRow, SeparationRow, TrajectoryRow } from './types.js';

const SIGNALS: ReadonlyArray<SeparationRow['signal']> = ['total', 'struct', 'cov', 'coh', 'temp'];

/**
 * AUROC (passing = positive) and the two-sample KS test of each score
 * component over scored trajectories with a pass/fail outcome.
 */
export function separation(rows: readonly TrajectoryRow[]): SeparationRow[] {
  return SIGNALS.map((signal) => {
    const value = (r: TrajectoryRow) => r.score?.[signal] ?? null;
    const pick = (o: 'pass' | 'fail') =>
      rows
        .filter((r) => r.outcome === o)
        .map(value)
        .filter((v): v is number => v !== null);
    const pass = pick('pass');
    const fail = pick('fail');
    const a = auroc(pass, fail);
    const ks = ksTwoSample(pass, fail);
    return { signal, nPass: pass.length, nFail: fail.length, auroc: a?.auroc ?? null, ksD: ks?.d ?? null, ksP: ks?.p ?? null };
  });
}

/** χ² test of independence of model × Lucky category over the scored Lucky passes. */
export function luckyChiSquare(rows: readonly TrajectoryRow[]): ChiSquareRow {
  const lucky = rows.filter((r) => r.outcome === 'pass' && r.lucky !== undefined);
  const models = [...new Set(lucky.map(modelLabel))].sort();
  const cats = [...new Set(lucky.map((r) => r.lucky!))].sort();
  const table = models.map((m) => cats.map((c) => lucky.filter((r) => modelLabel(r) === m && r.lucky === c).length));
  const res = chiSquareIndependence(table);
  if (!res) {
    return {
      rows: models,
      cols: cats,
      table,
      statistic: null,
      dof: null,
      p: null,
      note: `needs Lucky passes of at least 2 models in at least 2 categories (have ${lucky.length} Lucky passes, ${models.length} models, ${cats.length} categories)`,
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
