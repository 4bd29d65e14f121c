/**
 * Redundant steps (method.md section 7): a state that changes no file and is
 * equivalent to an earlier state of the same stage by the content tier (equal
 * hash) or the line-range tier (same file, ranges overlapping >= 30 %, conf >=
 * tau), with no file-changing state between them: it re-read or re-ran
 * something unchanged. Blind retries are reported as such, not again here.
 */
import { rangeOverlap } from '../equivalence/range-overlap.js';
import type { State } from '../types.js';

/** Confidence of the content or line-range tier between two states, 0 when neither applies. */
export function contentOrRangeConf(a: State, b: State): number {
  if (a.hash === b.hash) return 1;
  if (a.file === undefined || a.file !== b.file) return 0;
  const ov = rangeOverlap(a.range, b.range);
  return ov >= 0.3 ? 0.8 + (0.15 * (ov - 0.3)) / 0.7 : 0;
}

export interface RedundantStep {
  /** The redundant state. */
  t: number;
  /** The earlier state it repeats. */
  of: number;
  tool: string;
}

/**
 * Finds redundant steps. `retries` holds the steps already counted as blind
 * retries (skipped here).
 */
export function findRedundantSteps(states: readonly State[], tau: number, retries: ReadonlySet<number>): RedundantStep[] {
  const out: RedundantStep[] = [];
  let since = 0;
  for (let i = 0; i < states.length; i++) {
    const s = states[i]!;
    if (s.changesFile) {
      since = i + 1;
      continue;
    }
    if (retries.has(s.t)) continue;
    for (let j = i - 1; j >= since; j--) {
      const e = states[j]!;
      if (e.stage === s.stage && contentOrRangeConf(e, s) >= tau) {
        out.push({ t: s.t, of: e.t, tool: s.tool });
        break;
      }
    }
  }
  return out;
}
