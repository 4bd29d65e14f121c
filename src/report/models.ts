/** Per-model table: pass rate, mean quality, both ranks and the shift, tiers, Lucky mix, waste. */
import { averageRanks, mean } from '../core/stats/descriptive.js';
import type { LuckyCategory } from '../core/types.js';
import { modelLabel } from './identity.js';
import type { ModelRow, TrajectoryRow } from './types.js';

const LUCKY: readonly LuckyCategory[] = ['C1', 'C2', 'C3', 'C4', 'C5', 'unclassified'];

function modelRow(model: string | null, run: string | undefined, rs: readonly TrajectoryRow[]): ModelRow {
  const evaluated = rs.filter((r) => r.outcome === 'pass' || r.outcome === 'fail');
  const passes = evaluated.filter((r) => r.outcome === 'pass').length;
  const scored = evaluated.filter((r) => r.score);
  const scoredPassing = scored.filter((r) => r.outcome === 'pass');
  const tiers = { Ideal: 0, Solid: 0, Lucky: 0 };
  for (const r of scoredPassing) if (r.tier === 'Ideal' || r.tier === 'Solid' || r.tier === 'Lucky') tiers[r.tier]++;
  const luckyMix = Object.fromEntries(LUCKY.map((c) => [c, 0])) as Record<LuckyCategory, number>;
  for (const r of scoredPassing) if (r.lucky) luckyMix[r.lucky]++;
  const k = scoredPassing.length;
  return {
    model,
    ...(run !== undefined ? { run } : {}),
    trajectories: rs.length,
    evaluated: evaluated.length,
    passes,
    passRate: evaluated.length ? passes / evaluated.length : null,
    scored: scored.length,
    meanQuality: mean(scored.map((r) => r.score!.total)),
    rankPass: null,
    rankQuality: null,
    rankShift: null,
    scoredPassing: k,
    tiers,
    tierShares: k ? { Ideal: tiers.Ideal / k, Solid: tiers.Solid / k, Lucky: tiers.Lucky / k } : null,
    luckyRate: k ? tiers.Lucky / k : null,
    luckyMix,
    wastedSteps: rs.reduce((n, r) => n + r.wastedSteps, 0),
    wastedTokens: rs.reduce((n, r) => n + r.wastedTokens, 0),
  };
}

/**
 * One row per model (a model nobody names: one row per run, `model` null), sorted by pass rate then name. Ranks (1 = best, ties
 * averaged) are computed over the models that have both a pass rate and a
 * mean quality (at least one scored, evaluated trajectory), so both rank
 * columns rank the same set; rankShift = rankPass − rankQuality.
 */
export function modelRows(rows: readonly TrajectoryRow[]): ModelRow[] {
  // Runs whose model nobody names are grouped per run, never pooled with other such runs.
  const byModel = new Map<string, TrajectoryRow[]>();
  const key = (r: TrajectoryRow) => JSON.stringify(r.model ?? [r.run]);
  for (const r of rows) byModel.set(key(r), [...(byModel.get(key(r)) ?? []), r]);
  const out = [...byModel.values()].map((rs) => modelRow(rs[0]!.model, rs[0]!.model === null ? rs[0]!.run : undefined, rs));
  const ranked = out.filter((m) => m.passRate !== null && m.meanQuality !== null);
  const rp = averageRanks(
    ranked.map((m) => m.passRate!),
    true,
  );
  const rq = averageRanks(
    ranked.map((m) => m.meanQuality!),
    true,
  );
  ranked.forEach((m, i) => {
    m.rankPass = rp[i]!;
    m.rankQuality = rq[i]!;
    m.rankShift = rp[i]! - rq[i]!;
  });
  return out.sort((a, b) => (b.passRate ?? -1) - (a.passRate ?? -1) || (modelLabel(a) < modelLabel(b) ? -1 : 1));
}
