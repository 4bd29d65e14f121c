/** A whole policy replayed through the early-stop engine on every run, in both modes. */
import type { Policy } from '../policy.js';
import { pointOf, type RunFacts } from './evaluate.js';
import { policyStops } from './stop-vectors.js';
import { MODES, type EvaluatedPolicy, type ModeName, type StopSettings, type TradeoffPoint, type TradeoffRun } from './tradeoff-types.js';

/** Per mode, the stop vector of `policy` (index of the first stop per run, or null). */
export function modeStops(runs: readonly TradeoffRun[], policy: Policy): Record<ModeName, (number | null)[]> {
  return { reference: [...policyStops(runs, 'reference', policy)], referenceFree: [...policyStops(runs, 'referenceFree', policy)] };
}

/** Points of per-mode stop vectors. */
export function modePoints(facts: readonly RunFacts[], stops: Record<ModeName, readonly (number | null)[]>): Record<ModeName, TradeoffPoint> {
  return { reference: pointOf(facts, stops.reference), referenceFree: pointOf(facts, stops.referenceFree) };
}

/** Replays `policy` on `runs` and reports its numbers and where each run stops. */
export function evaluatePolicy(runs: readonly TradeoffRun[], facts: readonly RunFacts[], policy: Policy, settings: StopSettings): EvaluatedPolicy {
  const stops = modeStops(runs, policy);
  return {
    settings,
    policy,
    modes: modePoints(facts, stops),
    runs: runs.map((r, i) => ({
      id: r.id,
      task: r.task,
      passed: r.passed,
      steps: r.states.length,
      hasReference: r.hasReference,
      stopAt: { reference: stops.reference[i] ?? null, referenceFree: stops.referenceFree[i] ?? null },
    })),
  };
}

/** First mode and run where two stop vectors differ, or undefined. */
export function firstMismatch(a: Record<ModeName, readonly (number | null)[]>, b: Record<ModeName, readonly (number | null)[]>): string | undefined {
  for (const m of MODES) {
    const i = a[m].findIndex((x, j) => x !== (b[m][j] ?? null));
    if (i >= 0) return `${m} run ${i}: ${a[m][i]} vs ${b[m][i]}`;
  }
  return undefined;
}
