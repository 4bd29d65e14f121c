/**
 * Per-source table (agent + model): pass rate and mean quality with n and 95 % intervals, ranks that
 * mark ties and skip sources with too few runs, tiers, Lucky mix and waste over every scored run.
 */
import type { BootstrapOptions } from '../core/stats/bootstrap.js';
import { clusteredMeanInterval, clusteredRateInterval, clustersBy } from '../core/stats/clustered.js';
import { mean } from '../core/stats/descriptive.js';
import type { LuckyCategory } from '../core/types.js';
import { modelLabel } from './identity.js';
import { rankSources, type RankBasis } from './rank-shared.js';
import type { ModelRow, TrajectoryRow } from './types.js';

const LUCKY: readonly LuckyCategory[] = ['C1', 'C2', 'C3', 'C4', 'C5', 'unclassified'];

/** Default fewest runs behind a rank (`report --min-runs`). */
export const MIN_RANKED_RUNS = 10;

/** The runs of each task (a run naming no task: its own): runs of one task are not independent. */
const byTask = (rs: readonly TrajectoryRow[]) => clustersBy(rs, (r) => r.task);

/** Wilson's interval of the share of `rs` that `hit`, with the task clusters' design effect (clusteredRateInterval). */
const rateOf = (rs: readonly TrajectoryRow[], hit: (r: TrajectoryRow) => boolean, level?: number) =>
  clusteredRateInterval(
    byTask(rs).map((c) => ({ k: c.filter(hit).length, n: c.length })),
    level,
  );

/** Ideal, Solid and Lucky: the tiers of a passing run. */
const PASS_TIERS = ['Ideal', 'Solid', 'Lucky'] as const;

/**
 * Each pass tier's share of the scored passing runs `rs` with its interval (rateOf: runs of one task are not
 * independent); null without any. Two passing runs both Solid are a share of 1 that says little: the interval says so.
 */
export function passTierShares(rs: readonly TrajectoryRow[], level?: number) {
  if (rs.length === 0) return null;
  return Object.fromEntries(PASS_TIERS.map((tier) => [tier, { share: rs.filter((r) => r.tier === tier).length / rs.length, interval: rateOf(rs, (r) => r.tier === tier, level) }])) as Record<
    (typeof PASS_TIERS)[number],
    { share: number; interval: ReturnType<typeof rateOf> }
  >;
}

function modelRow(rs: readonly TrajectoryRow[], options: BootstrapOptions): ModelRow {
  const first = rs[0]!;
  const evaluated = rs.filter((r) => r.outcome === 'pass' || r.outcome === 'fail');
  const passes = evaluated.filter((r) => r.outcome === 'pass').length;
  const scored = rs.filter((r) => r.score);
  const scoredPassing = scored.filter((r) => r.outcome === 'pass');
  const tiers = { Ideal: 0, Solid: 0, Lucky: 0 };
  for (const r of scoredPassing) if (r.tier === 'Ideal' || r.tier === 'Solid' || r.tier === 'Lucky') tiers[r.tier]++;
  const luckyMix = Object.fromEntries(LUCKY.map((c) => [c, 0])) as Record<LuckyCategory, number>;
  for (const r of scoredPassing) if (r.lucky) luckyMix[r.lucky]++;
  const k = scoredPassing.length;
  const quality = scored.map((r) => r.score!.total);
  const shares = passTierShares(scoredPassing, options.level);
  return {
    source: first.source,
    agent: first.agent,
    model: first.model,
    ...(first.model === null ? { run: first.run } : {}),
    trajectories: rs.length,
    evaluated: evaluated.length,
    passes,
    passRate: evaluated.length ? passes / evaluated.length : null,
    passRateInterval: rateOf(evaluated, (r) => r.outcome === 'pass', options.level),
    scored: scored.length,
    meanQuality: mean(quality),
    meanQualityInterval: clusteredMeanInterval(
      byTask(scored).map((c) => c.map((r) => r.score!.total)),
      options,
    ),
    rankPass: null,
    rankPassTied: false,
    rankQuality: null,
    rankQualityTied: false,
    rankShift: null,
    scoredPassing: k,
    tiers,
    tierShares: shares && { Ideal: shares.Ideal.share, Solid: shares.Solid.share, Lucky: shares.Lucky.share },
    tierShareIntervals: shares && { Ideal: shares.Ideal.interval, Solid: shares.Solid.interval, Lucky: shares.Lucky.interval },
    luckyRate: shares?.Lucky.share ?? null,
    luckyRateInterval: shares?.Lucky.interval ?? null,
    luckyMix,
    wastedSteps: scored.reduce((n, r) => n + r.wastedSteps, 0),
    wastedTokens: scored.reduce((n, r) => n + r.wastedTokens, 0),
  };
}

/**
 * One row per source (a model nobody names: one row per run folder, `model` null). Pass rate and mean
 * quality are ranked separately (rankWithTies: 1 + rows clearly above; overlapping intervals tie);
 * a row with fewer than `minRuns` evaluated (pass rate) or scored (quality) runs is listed unranked; sources that
 * ran different tasks are ranked on the tasks all of them ran, or not at all (rank-shared.ts).
 * Order (MODELS_ORDER): ranked sources by pass-rate rank, then pass rate; the unranked after them by evaluated runs, then
 * scored runs (most first), then name: sorting them by pass rate listed one-run sources at 100 % first, a ranking the
 * rank column denies.
 */
export function modelRows(rows: readonly TrajectoryRow[], options: BootstrapOptions & { minRuns?: number } = {}): ModelRow[] {
  const minRuns = options.minRuns ?? MIN_RANKED_RUNS;
  const groups = clustersBy(rows, (r) => r.source);
  const out = groups.map((rs) => modelRow(rs, options));
  const pass: RankBasis = {
    runs: (rs) => rs.filter((r) => r.outcome === 'pass' || r.outcome === 'fail'),
    figure: (rs) => ({ estimate: rs.length ? rs.filter((r) => r.outcome === 'pass').length / rs.length : null, interval: rateOf(rs, (r) => r.outcome === 'pass', options.level) }),
  };
  const quality: RankBasis = {
    runs: (rs) => rs.filter((r) => r.score),
    figure: (rs) => ({
      estimate: mean(rs.map((r) => r.score!.total)),
      interval: clusteredMeanInterval(
        byTask(rs).map((c) => c.map((r) => r.score!.total)),
        options,
      ),
    }),
  };
  const ownPass = out.map((m) => ({ estimate: m.passRate, interval: m.passRateInterval, n: m.evaluated }));
  const ownQuality = out.map((m) => ({ estimate: m.meanQuality, interval: m.meanQualityInterval, n: m.scored }));
  const { results: rp, on: passOn } = rankSources(groups, ownPass, pass, minRuns);
  const { results: rq, on: qualityOn } = rankSources(groups, ownQuality, quality, minRuns);
  out.forEach((m, i) => {
    const p = rp[i]!;
    const q = rq[i]!;
    m.rankPass = p.rank;
    m.rankPassTied = p.tied;
    m.rankQuality = q.rank;
    m.rankQualityTied = q.tied;
    m.rankShift = p.rank !== null && q.rank !== null ? p.rank - q.rank : null;
    if (p.unranked !== undefined) m.unrankedPass = p.unranked;
    if (q.unranked !== undefined) m.unrankedQuality = q.unranked;
    if (passOn[i] !== undefined) m.rankPassOn = passOn[i];
    if (qualityOn[i] !== undefined) m.rankQualityOn = qualityOn[i];
  });
  return out.sort(modelOrder);
}

/** How the models table is ordered, said under it in every rendering (render/summary.ts, modelsCautions). */
export const MODELS_ORDER = 'Rows: sources ranked by pass rate first, by rank; the others by evaluated runs, then scored runs (most first), then name, which ranks nothing.';

const label = (m: ModelRow) => `${m.agent} ${modelLabel(m)}`;

function modelOrder(a: ModelRow, b: ModelRow): number {
  if (a.rankPass !== null || b.rankPass !== null) {
    const byRank = (a.rankPass ?? Infinity) - (b.rankPass ?? Infinity);
    if (byRank !== 0) return byRank;
    return (b.passRate ?? -1) - (a.passRate ?? -1) || (label(a) < label(b) ? -1 : 1);
  }
  return b.evaluated - a.evaluated || b.scored - a.scored || (label(a) < label(b) ? -1 : label(a) > label(b) ? 1 : 0);
}
