/**
 * AUROC of many scorings of one group of runs, fast enough for a weight grid
 * of ~18,000 points: scores go into two preallocated typed arrays (passing,
 * failing), each sorted natively, and one merge counts the pairs. The value
 * equals `stats/auroc` (Mann-Whitney U, ties ½) exactly: both count whole
 * and half pairs, which floats hold exactly at these sizes.
 */
import { sortedU } from '../stats/auroc.js';

/** One group's runs split by outcome. */
export interface ScoredGroup<T = unknown> {
  pos: readonly T[];
  neg: readonly T[];
}

/** P(pos > neg) + ½ P(tie) of two ascending-sorted arrays. */
export function mergeAuroc(pos: Float64Array, neg: Float64Array): number {
  return sortedU(pos, neg) / (pos.length * neg.length);
}

/** AUROC of `score` over a group; null without both outcomes. */
export function sortedAuroc<T>(g: ScoredGroup<T>, score: (x: T) => number): number | null {
  if (g.pos.length === 0 || g.neg.length === 0) return null;
  const p = Float64Array.from(g.pos, score).sort();
  const n = Float64Array.from(g.neg, score).sort();
  return mergeAuroc(p, n);
}

/** AUROC of many scorings (numbered k) of one group, reusing two buffers: `at(k, score)` sorts and merges. */
export class GroupAuroc<T> {
  private readonly p: Float64Array;
  private readonly n: Float64Array;

  constructor(private readonly g: ScoredGroup<T>) {
    this.p = new Float64Array(g.pos.length);
    this.n = new Float64Array(g.neg.length);
  }

  /** AUROC of scoring k (NaN without both outcomes). */
  at(k: number, score: (x: T, k: number) => number): number {
    const { p, n, g } = this;
    if (p.length === 0 || n.length === 0) return Number.NaN;
    for (let i = 0; i < p.length; i++) p[i] = score(g.pos[i]!, k);
    for (let i = 0; i < n.length; i++) n[i] = score(g.neg[i]!, k);
    return mergeAuroc(p.sort(), n.sort());
  }

  /** Runs in the group. */
  get size(): number {
    return this.p.length + this.n.length;
  }
}
