/**
 * Ranking entries that carry intervals (docs/method.md section 16, "Ties in rankings"): an entry's rank
 * is 1 + the number of entries whose whole interval lies above its own (those it is clearly behind), so
 * entries that cannot be told apart share a rank; an entry is tied when its interval overlaps another
 * ranked entry's. Entries with fewer than `minRuns` observations, or no interval (a bootstrap of one run gives
 * none), get no rank (listed, not ranked): without an interval nothing says two entries are apart. When fewer than
 * MIN_RANKED entries qualify, none is ranked: a rank among one is no ranking ("rank 1" of one source read as a win).
 */
import { intervalsOverlap, type Interval } from './interval.js';

/** One entry to rank: its estimate, interval and number of observations (null estimate: no rank). */
export interface RankInput {
  estimate: number | null;
  interval: Interval | null;
  n: number;
}

/** The rank of one entry (null: not ranked) and whether another ranked entry's interval overlaps its own. */
export interface RankResult {
  rank: number | null;
  tied: boolean;
  /** Why the entry has no rank (`n < minRuns`, or no estimate). */
  unranked?: string;
}

/** The fewest entries that make a ranking. */
export const MIN_RANKED = 2;

/** Ranks `entries` (higher estimates first); aligned with the input. */
export function rankWithTies(entries: readonly RankInput[], minRuns: number): RankResult[] {
  const ranked = entries.map((e, i) => ({ e, i })).filter(({ e }) => e.estimate !== null && e.interval !== null && e.n >= minRuns);
  const out: RankResult[] = entries.map((e) => ({
    rank: null,
    tied: false,
    unranked: e.estimate === null ? 'no estimate' : e.interval === null ? 'no interval (n too small)' : `n ${e.n} < ${minRuns}`,
  }));
  if (ranked.length < MIN_RANKED) {
    for (const { i } of ranked) out[i] = { rank: null, tied: false, unranked: `the only entry with n >= ${minRuns}: a rank needs ${MIN_RANKED}` };
    return out;
  }
  for (const { e, i } of ranked) {
    const above = ranked.filter(({ e: o }) => o.interval!.lo > e.interval!.hi).length;
    const tied = ranked.some(({ e: o, i: j }) => j !== i && intervalsOverlap(o.interval!, e.interval!));
    out[i] = { rank: 1 + above, tied };
  }
  return out;
}
