/**
 * State equivalence engine (method.md section 3): a confidence in [0, 1] that
 * two scorer states do the same thing, from four tiers.
 */
import { jaccard } from './equivalence/jaccard.js';
import { rangeOverlap } from './equivalence/range-overlap.js';
import type { State } from './types.js';

/** Default equivalence threshold τ (method.md section 3, a choice). */
export const DEFAULT_TAU = 0.7;

/** Which tier produced a confidence. */
export type EquivalenceTier = 'content' | 'scope' | 'range' | 'tokens' | 'none';

/** Minimum range overlap for the line-range tier. */
export const MIN_RANGE_OVERLAP = 0.3;
/** Minimum Jaccard similarity for the command-token tier. */
export const MIN_TOKEN_JACCARD = 0.5;

/**
 * Compares two states; the first tier whose whole condition holds (threshold
 * included) gives the confidence:
 *
 * 1. `content`: equal `hash` → 1.0;
 * 2. `scope`: both have a `scope` and they are equal → 0.90;
 * 3. `range`: same `file` and range overlap `ov >= 0.3` (see {@link rangeOverlap}:
 *    overlap / shorter range; a missing range is the whole file, so it overlaps
 *    any range of that file fully) → 0.80 + 0.15·(ov − 0.3)/0.7;
 * 4. `tokens`: both are terminal commands (`command`) with Jaccard `J >= 0.5`
 *    of their `tokens` → 0.70 + 0.15·(J − 0.5)/0.5;
 * 5. `none` → 0.
 *
 * A tier whose precondition holds but whose threshold fails does not stop the
 * cascade: two states in the same file with 10 % overlap whose commands are
 * similar get the `tokens` tier; two states with different scopes may still
 * match by range. The comparison is symmetric and ignores the stage (see
 * {@link equivalent}).
 */
export function compare(a: State, b: State): { tier: EquivalenceTier; conf: number } {
  if (a.hash === b.hash) return { tier: 'content', conf: 1.0 };
  if (a.scope !== undefined && b.scope !== undefined && a.scope === b.scope) {
    return { tier: 'scope', conf: 0.9 };
  }
  if (a.file !== undefined && b.file !== undefined && a.file === b.file) {
    const ov = rangeOverlap(a.range, b.range);
    if (ov >= MIN_RANGE_OVERLAP) {
      return { tier: 'range', conf: 0.8 + (0.15 * (ov - MIN_RANGE_OVERLAP)) / 0.7 };
    }
  }
  // J <= min(|A|, |B|) / max(|A|, |B|): skip pairs whose sizes alone rule the tier out.
  if (a.command && b.command && Math.min(a.tokens.length, b.tokens.length) >= MIN_TOKEN_JACCARD * Math.max(a.tokens.length, b.tokens.length)) {
    const j = jaccard(a.tokens, b.tokens);
    if (j >= MIN_TOKEN_JACCARD) {
      return { tier: 'tokens', conf: 0.7 + (0.15 * (j - MIN_TOKEN_JACCARD)) / 0.5 };
    }
  }
  return { tier: 'none', conf: 0 };
}

/** Equivalence confidence of two states in [0, 1] (the `conf` of {@link compare}). */
export function conf(a: State, b: State): number {
  return compare(a, b).conf;
}

/** True when the states have the same stage and `conf(a, b) >= tau`. */
export function equivalent(a: State, b: State, tau: number): boolean {
  return a.stage === b.stage && conf(a, b) >= tau;
}
