/**
 * Score vectors are made by this class, not by object literals, for speed alone: they serialise and compare
 * like the literals. A literal's map lives in a weak cache, so after a full GC V8 could start it again with
 * small-integer fields. The scorer's optimised `push` was then thrown away at the first fractional score, about
 * 30 times while 1,000 sessions started (`--trace-deopt`). A class keeps its instances' map for its life, so the
 * fields' representations settle once.
 */
import type { ScoreVector } from './types.js';

export class Score implements ScoreVector {
  constructor(
    public total: number,
    public struct: number | null,
    public cov: number | null,
    public coh: number,
    public temp: number,
  ) {}
}
