/**
 * The search behind the reference-free weights: over a grid of scorings and
 * several training sets of groups (sources) at once, for each set the point
 * with the largest worst margin over a per-group baseline (run length alone),
 * ties to the larger mean margin, then to the earlier point. A group's AUROC
 * at a point is computed only while some set could still pick that point
 * (smallest groups first): a partial worst margin already below a set's best
 * can only fall, so skipping the rest changes no choice, and most points
 * never reach the largest source.
 */
import { GroupAuroc, type ScoredGroup } from './grid-auroc.js';

export interface BaselineGroup<T> extends ScoredGroup<T> {
  /** AUROC of the baseline on this group (null: the group has no margin and is left out of every min and mean). */
  baseline: number | null;
}

const EPS = 1e-12;

/** Index of the chosen point for each training set (lists of group indices); 0 when no point has a margin. */
export function chooseMaximin<T>(groups: ReadonlyArray<BaselineGroup<T>>, points: number, score: (x: T, k: number) => number, sets: ReadonlyArray<readonly number[]>): number[] {
  const evals = groups.map((g) => new GroupAuroc(g));
  const order = groups.map((_, i) => i).sort((a, b) => evals[a]!.size - evals[b]!.size || a - b);
  const best = sets.map(() => ({ at: 0, min: -Infinity, mean: -Infinity }));
  const margin = new Float64Array(groups.length);
  const done = new Uint8Array(groups.length);
  /** Worst and mean margin of a set over the groups evaluated so far (NaN margins left out). */
  const summary = (set: readonly number[]) => {
    let lo = Infinity;
    let sum = 0;
    let k = 0;
    for (const s of set) {
      if (done[s] === 0 || Number.isNaN(margin[s]!)) continue;
      if (margin[s]! < lo) lo = margin[s]!;
      sum += margin[s]!;
      k += 1;
    }
    return { lo, mean: k > 0 ? sum / k : Number.NaN, k };
  };
  for (let g = 0; g < points; g++) {
    done.fill(0);
    let alive = true;
    for (const s of order) {
      const base = groups[s]!.baseline;
      margin[s] = base === null ? Number.NaN : evals[s]!.at(g, score) - base;
      done[s] = 1;
      alive = sets.some((set, c) => summary(set).lo >= best[c]!.min - EPS);
      if (!alive) break;
    }
    if (!alive) continue;
    sets.forEach((set, c) => {
      const { lo, mean, k } = summary(set);
      const b = best[c]!;
      if (k === 0) return;
      if (lo > b.min + EPS || (Math.abs(lo - b.min) <= EPS && mean > b.mean + EPS)) {
        b.at = g;
        b.min = lo;
        b.mean = mean;
      }
    });
  }
  return best.map((b) => b.at);
}

/** The groups a leave-one-group-out choice can be measured on and chosen with: those with both outcomes (fewer than 2: none held out). */
export function heldOutGroups<T>(groups: ReadonlyArray<ScoredGroup<T>>): number {
  return groups.filter((g) => g.pos.length > 0 && g.neg.length > 0).length;
}
