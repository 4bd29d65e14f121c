/**
 * Shadow counters of one agent + model pair: per candidate, what it would
 * have done to every counted run (passing runs stopped; failing runs stopped,
 * failing steps and tokens saved), and the promotion rule: the candidate that
 * saves the most failing-run tokens among those whose upper confidence bound
 * of the false-stop rate is within the bound (and that stop a failing run).
 */
import { runFacts } from '../calibrate/evaluate.js';
import { compareConservative } from '../calibrate/stop-settings.js';
import type { ShadowCandidate } from './candidates.js';
import type { Policy } from '../policy.js';
import { upperBound, type BoundMethod } from '../stats/binomial.js';
import type { State } from '../types.js';
import { candidateStops, type ShadowPlan } from './candidates.js';

export interface CandidateCounters {
  passingStopped: number;
  failingStopped: number;
  failingStepsSaved: number;
  failingTokensSaved: number;
}

export interface PairCounters {
  passing: number;
  failing: number;
  failingSteps: number;
  failingTokens: number;
  candidates: Record<string, CandidateCounters>;
}

export interface PromotionRule {
  maxFalseStop: number;
  confidence: number;
  bound: BoundMethod;
}

export const emptyCounters = (): PairCounters => ({ passing: 0, failing: 0, failingSteps: 0, failingTokens: 0, candidates: {} });

/** Adds one finished run with a known outcome. */
export function recordRun(c: PairCounters, plan: ShadowPlan, run: { states: readonly State[]; totals: readonly number[]; passed: boolean }, base: Policy): void {
  const candidates = plan.candidates;
  const stops = candidateStops(plan, run.states, run.totals, base);
  const { steps: n, tokensAfter: after, tokens: sum } = runFacts(run);
  if (run.passed) c.passing += 1;
  else {
    c.failing += 1;
    c.failingSteps += n;
    c.failingTokens += sum;
  }
  candidates.forEach((cand, i) => {
    const s = stops[i] ?? null;
    if (s === null) return;
    const k = (c.candidates[cand.id] ??= { passingStopped: 0, failingStopped: 0, failingStepsSaved: 0, failingTokensSaved: 0 });
    if (run.passed) k.passingStopped += 1;
    else {
      k.failingStopped += 1;
      k.failingStepsSaved += n - 1 - s;
      k.failingTokensSaved += after[s]!;
    }
  });
}

const ZERO: CandidateCounters = { passingStopped: 0, failingStopped: 0, failingStepsSaved: 0, failingTokensSaved: 0 };

/** A candidate's counters (zeros when it never stopped a counted run). */
export const countersOf = (c: PairCounters, id: string): CandidateCounters => c.candidates[id] ?? ZERO;

/** The candidate's false-stop upper bound (1 without passing runs). */
export const upperOf = (c: PairCounters, id: string, rule: PromotionRule): number => upperBound(rule.bound, countersOf(c, id).passingStopped, c.passing, rule.confidence);

const allowedCache = new Map<string, number>();

/** The most passing runs of `passing` a candidate may have stopped with its bound within the rule's (-1: none); memoised (bounds are costly). */
export function passingAllowed(passing: number, rule: PromotionRule): number {
  const key = `${passing}|${rule.maxFalseStop}|${rule.confidence}|${rule.bound}`;
  const hit = allowedCache.get(key);
  if (hit !== undefined) return hit;
  let k = -1;
  while (k + 1 <= passing && passing > 0 && upperBound(rule.bound, k + 1, passing, rule.confidence) <= rule.maxFalseStop + 1e-12) k += 1;
  if (allowedCache.size >= 10_000) allowedCache.clear();
  allowedCache.set(key, k);
  return k;
}

/** The candidate to promote, or undefined when none qualifies yet. */
export function promotable(c: PairCounters, candidates: readonly ShadowCandidate[], rule: PromotionRule): ShadowCandidate | undefined {
  const allowed = passingAllowed(c.passing, rule);
  if (allowed < 0) return undefined;
  let best: ShadowCandidate | undefined;
  for (const cand of candidates) {
    const k = countersOf(c, cand.id);
    if (k.failingStopped === 0 || k.passingStopped > allowed) continue;
    if (best === undefined) {
      best = cand;
      continue;
    }
    const b = countersOf(c, best.id);
    const d = k.failingTokensSaved - b.failingTokensSaved;
    if (d > 1e-9 || (Math.abs(d) <= 1e-9 && (k.passingStopped < b.passingStopped || (k.passingStopped === b.passingStopped && compareConservative(cand.settings, best.settings) < 0)))) best = cand;
  }
  return best;
}
