/** Pareto non-dominated fronts over the reliability vector (method.md section 9). */
import type { ReliabilityMetrics } from './types.js';

/**
 * The objective vector ⟨p_attempt, AllPass@k, CR, −ATFR, −PCR⟩, every entry
 * to maximise. AllPass@k is the conservative variant (always defined); a
 * metric that is undefined (null) counts as the worst possible value.
 */
export function reliabilityVector(m: ReliabilityMetrics): number[] {
  const v = (x: number | null, sign: 1 | -1) => (x === null ? -Infinity : sign * x);
  return [v(m.pAttempt, 1), v(m.allPassConservative, 1), v(m.cr, 1), v(m.atfr, -1), v(m.pcr, -1)];
}

/** True when `a` is at least as good as `b` everywhere and better somewhere (maximisation). */
export function dominates(a: readonly number[], b: readonly number[]): boolean {
  let better = false;
  for (let i = 0; i < a.length; i++) {
    if (a[i]! < b[i]!) return false;
    if (a[i]! > b[i]!) better = true;
  }
  return better;
}

/**
 * Non-dominated sorting: the 1-based front of each vector (front 1 = not
 * dominated by any other; front 2 = dominated only by front 1; ...).
 */
export function paretoFronts(vectors: ReadonlyArray<readonly number[]>): number[] {
  const front = new Array<number>(vectors.length).fill(0);
  let remaining = vectors.map((_, i) => i);
  let level = 0;
  while (remaining.length > 0) {
    level++;
    const current = remaining.filter((i) => !remaining.some((j) => j !== i && dominates(vectors[j]!, vectors[i]!)));
    for (const i of current) front[i] = level;
    remaining = remaining.filter((i) => front[i] === 0);
  }
  return front;
}
