/**
 * The naive early-stop rule the calibration is compared with: stop when one
 * exact action (same state hash) occurs for the `n`-th time in a run,
 * whatever happened in between (no "nothing changed" condition, unlike a
 * blind retry).
 */
import type { CalibrationRun, RepeatBaseline } from './types.js';

/** Index of the first state whose hash has now occurred `n` times in the run, or undefined. */
export function nthOccurrence(run: CalibrationRun, n: number): number | undefined {
  const seen = new Map<string, number>();
  for (let i = 0; i < run.states.length; i++) {
    const h = run.states[i]!.hash;
    const c = (seen.get(h) ?? 0) + 1;
    if (c >= n) return i;
    seen.set(h, c);
  }
  return undefined;
}

const rate = (k: number, of: number): number | null => (of === 0 ? null : k / of);

/** How many passing and failing runs the "stop at the n-th occurrence of one exact action" rule would stop. */
export function repeatBaseline(runs: readonly CalibrationRun[], n: number): RepeatBaseline {
  let passing = 0;
  let failing = 0;
  let passingStopped = 0;
  let failingStopped = 0;
  for (const r of runs) {
    const hit = nthOccurrence(r, n) !== undefined;
    if (r.passed) {
      passing += 1;
      if (hit) passingStopped += 1;
    } else {
      failing += 1;
      if (hit) failingStopped += 1;
    }
  }
  return { n, passingStopped, failingStopped, passingRate: rate(passingStopped, passing), failingRate: rate(failingStopped, failing) };
}
