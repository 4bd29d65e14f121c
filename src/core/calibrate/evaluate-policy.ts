/** A whole policy replayed through the early-stop engine on every run, in both modes, pooled and per source. */
import type { Policy } from '../policy.js';
import { DEFAULT_BOUND, pointOf, type BoundSpec, type RunFacts } from './evaluate.js';
import { policyStops } from './stop-vectors.js';
import { withinSourceMeans } from './within-source.js';
import { MODES, type EvaluatedPolicy, type ModeName, type SourcePoint, type StopSettings, type TradeoffPoint, type TradeoffRun } from './tradeoff-types.js';

/** Per mode, the stop vector of `policy` (index of the first stop per run, or null). */
export function modeStops(runs: readonly TradeoffRun[], policy: Policy): Record<ModeName, Array<number | null>> {
  return { reference: [...policyStops(runs, 'reference', policy)], referenceFree: [...policyStops(runs, 'referenceFree', policy)] };
}

/** Points of per-mode stop vectors. */
export function modePoints(facts: readonly RunFacts[], stops: Record<ModeName, ReadonlyArray<number | null>>, bound: BoundSpec = DEFAULT_BOUND): Record<ModeName, TradeoffPoint> {
  return { reference: pointOf(facts, stops.reference, bound), referenceFree: pointOf(facts, stops.referenceFree, bound) };
}

/** The sources the runs name, in order of first appearance (empty when no run names one). */
export function sourcesOf(runs: readonly TradeoffRun[]): string[] {
  return [...new Set(runs.flatMap((r) => (r.source !== undefined ? [r.source] : [])))];
}

/** Points per source (runs without a source left out). */
export function sourcePoints(runs: readonly TradeoffRun[], facts: readonly RunFacts[], stops: Record<ModeName, ReadonlyArray<number | null>>, bound: BoundSpec = DEFAULT_BOUND): SourcePoint[] {
  return sourcesOf(runs).map((source) => {
    const idx = runs.flatMap((r, i) => (r.source === source ? [i] : []));
    const pick = (v: ReadonlyArray<number | null>) => idx.map((i) => v[i] ?? null);
    return {
      source,
      modes: modePoints(
        idx.map((i) => facts[i]!),
        { reference: pick(stops.reference), referenceFree: pick(stops.referenceFree) },
        bound,
      ),
    };
  });
}

/** Replays `policy` on `runs` and reports its numbers (per source too, when runs name sources) and where each run stops. */
export function evaluatePolicy(runs: readonly TradeoffRun[], facts: readonly RunFacts[], policy: Policy, settings: StopSettings, bound: BoundSpec = DEFAULT_BOUND): EvaluatedPolicy {
  const stops = modeStops(runs, policy);
  const bySource = sourcesOf(runs).length > 0 ? sourcePoints(runs, facts, stops, bound) : undefined;
  const within = { reference: withinSourceMeans(runs, facts, stops.reference), referenceFree: withinSourceMeans(runs, facts, stops.referenceFree) };
  return {
    settings,
    policy,
    modes: modePoints(facts, stops, bound),
    ...(bySource ? { bySource } : {}),
    ...(within.reference && within.referenceFree ? { withinSource: { reference: within.reference, referenceFree: within.referenceFree } } : {}),
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
export function firstMismatch(a: Record<ModeName, ReadonlyArray<number | null>>, b: Record<ModeName, ReadonlyArray<number | null>>): string | undefined {
  for (const m of MODES) {
    const i = a[m].findIndex((x, j) => x !== (b[m][j] ?? null));
    if (i >= 0) return `${m} run ${i}: ${a[m][i]} vs ${b[m][i]}`;
  }
  return undefined;
}
