/**
 * bench/rank.ts's fourth round (calib14, issue 26 item 1): pPass combined with the group's own consensus by a weight
 * chosen without the held-out set. Each run's score is its mid-rank within the group under pPass plus `vote` times
 * its mid-rank under the vote on normalised final patches, plus `locations` times its mid-rank under the location
 * consensus, plus `check` times its mid-rank under checkAfterEdit (ranks: scale-free, as the third round's Borda);
 * ties by pPass. The grid's first point (all 0) is pPass alone, so a choice that finds nothing better stays pPass.
 */
import { midRanks } from './group-ranks.js';

export interface ComboWeights {
  vote: number;
  locations: number;
  check: number;
}

/** The weights tried **(fixed before any was measured)**: each of 0, 0.5, 1, 2 for each term (64 points, pPass alone first). */
export function comboGrid(): ComboWeights[] {
  const steps = [0, 0.5, 1, 2];
  const out: ComboWeights[] = [];
  for (const vote of steps) for (const locations of steps) for (const check of steps) out.push({ vote, locations, check });
  // Smaller total weight first, so that a tie goes to the simpler combination (pPass alone before all).
  return out.sort((x, y) => x.vote + x.locations + x.check - (y.vote + y.locations + y.check));
}

export const comboName = (w: ComboWeights): string => `pPass + ${w.vote}·vote + ${w.locations}·locations + ${w.check}·checkAfterEdit (mid-ranks)`;

/** The group's scores under `w`, from its runs' pPass, vote, location consensus and checkAfterEdit (one value per run each). */
export function comboScores(w: ComboWeights, pPass: readonly number[], vote: readonly number[], locations: readonly number[], check: readonly number[]): number[] {
  const [p, v, l, c] = [pPass, vote, locations, check].map(midRanks) as [number[], number[], number[], number[]];
  return p.map((x, i) => x + w.vote * v[i]! + w.locations * l[i]! + w.check * c[i]! + 1e-6 * pPass[i]!);
}
