/** The numbers of one stop vector: false and true stops, steps and tokens saved, median stop step. */
import { upperBound, type BoundMethod } from '../stats/binomial.js';
import { spread } from '../stats/bootstrap.js';
import { countOf, median } from '../stats/descriptive.js';
import { medianInterval, wilsonInterval } from '../stats/interval.js';
import { RatioDraws, sumDraws } from '../stats/ratio-draws.js';
import type { StopVector } from './stop-vectors.js';
import type { TradeoffPoint, TradeoffRun } from './tradeoff-types.js';

/** What the point computation needs of a run: outcome, length and the tokens after each state. */
export interface RunFacts {
  passed: boolean;
  steps: number;
  /** tokensAfter[i] = sum of the costs of states i+1..end. */
  tokensAfter: Float64Array;
  tokens: number;
}

/** Precomputes a run's facts once. */
export function runFacts(run: Pick<TradeoffRun, 'states' | 'passed'>): RunFacts {
  const n = run.states.length;
  const after = new Float64Array(n);
  let sum = 0;
  for (let i = n - 1; i >= 0; i--) {
    after[i] = sum;
    sum += run.states[i]!.cost;
  }
  return { passed: run.passed, steps: n, tokensAfter: after, tokens: sum };
}

const ratio = (k: number, of: number): number | null => (of === 0 ? null : k / of);

/** The two denominators of the saved shares, in the order failingDraws gives them. */
const STEPS = 0;
const TOKENS = 1;
/** The bootstrap draws of a run set's failing runs (steps and tokens their denominators), made once: every point of a calibration shares them. */
const drawsOf = new WeakMap<readonly RunFacts[], RatioDraws>();

function failingDraws(facts: readonly RunFacts[]): RatioDraws {
  let d = drawsOf.get(facts);
  if (d === undefined) {
    const failing = facts.filter((f) => !f.passed);
    d = new RatioDraws(failing.length, [failing.map((f) => f.steps), failing.map((f) => f.tokens)]);
    drawsOf.set(facts, d);
  }
  return d;
}

/**
 * The passing runs' tokens in each draw (seed 2: drawn apart from the failing runs'), so that the share of all runs'
 * tokens saved resamples both strata: the failing runs' draws serve it too (a RatioDraws over every run cost ~35 MB
 * and ~0.5 s of CPU on calibrate's fixture; audit27).
 */
const passingTokensOf = new WeakMap<readonly RunFacts[], Float64Array>();

function passingTokenDraws(facts: readonly RunFacts[]): Float64Array {
  let d = passingTokensOf.get(facts);
  if (d === undefined) {
    d = sumDraws(
      facts.filter((f) => f.passed).map((f) => f.tokens),
      { seed: 2 },
    );
    passingTokensOf.set(facts, d);
  }
  return d;
}

/** How the upper bound of a false-stop rate is computed. */
export interface BoundSpec {
  method: BoundMethod;
  confidence: number;
}

export const DEFAULT_BOUND: BoundSpec = { method: 'clopper-pearson', confidence: 0.95 };

/**
 * Counts and savings of `stops` over `facts` (aligned); the passing-run rate also as an upper bound, the failing-run
 * rate with its Wilson interval and the saved shares with a bootstrap interval over the failing runs (the runs the
 * bound counts too; none below MIN_RESAMPLE_UNITS failing runs or where every draw is the same).
 */
export function pointOf(facts: readonly RunFacts[], stops: StopVector, bound: BoundSpec = DEFAULT_BOUND): TradeoffPoint {
  let passing = 0,
    failing = 0,
    passingStopped = 0,
    failingStopped = 0;
  let failingSteps = 0,
    failingTokens = 0,
    allTokens = 0,
    stepsSaved = 0,
    tokensSaved = 0;
  const at: number[] = [];
  const atFailing: number[] = [];
  // The stopped failing runs' savings (an unstopped run saves 0 of its steps). Nothing saved: every draw is 0, no
  // interval (as `spread` would say), and no draws made.
  const savedSteps: Array<[number, number]> = [];
  const savedTokensAt: Array<[number, number]> = [];
  facts.forEach((f, i) => {
    const s = stops[i] ?? null;
    allTokens += f.tokens;
    if (f.passed) {
      passing += 1;
      if (s !== null) passingStopped += 1;
    } else {
      failing += 1;
      failingSteps += f.steps;
      failingTokens += f.tokens;
      const saved = s === null ? 0 : f.steps - 1 - s;
      const savedTokens = s === null ? 0 : (f.tokensAfter[s] ?? 0);
      if (s !== null) {
        savedSteps.push([failing - 1, saved]);
        savedTokensAt.push([failing - 1, savedTokens]);
        failingStopped += 1;
        stepsSaved += saved;
        tokensSaved += savedTokens;
        atFailing.push(s);
      }
    }
    if (s !== null) at.push(s);
  });
  // The failing and the all-runs token shares share their numerator's draws (one pass of the stopped runs).
  const [failingTokenShareInterval, allTokenShareInterval] = tokensSaved === 0 ? [null, null] : failingDraws(facts).intervals(TOKENS, savedTokensAt, [undefined, passingTokenDraws(facts)]);
  const stopInterval = medianInterval(at);
  return {
    passing,
    failing,
    passingStopped,
    passingRate: ratio(passingStopped, passing),
    passingUpper: passing === 0 ? null : upperBound(bound.method, passingStopped, passing, bound.confidence),
    failingStopped,
    failingRate: ratio(failingStopped, failing),
    failingInterval: failing === 0 ? null : wilsonInterval(failingStopped, failing),
    failingSteps,
    failingStepsSaved: stepsSaved,
    failingStepsShare: ratio(stepsSaved, failingSteps),
    failingStepsShareInterval: stepsSaved === 0 ? null : spread(failingDraws(facts).interval(STEPS, savedSteps)),
    failingTokens,
    failingTokensSaved: tokensSaved,
    failingTokenShare: ratio(tokensSaved, failingTokens),
    failingTokenShareInterval: spread(failingTokenShareInterval ?? null),
    allTokenShare: ratio(tokensSaved, allTokens),
    allTokenShareInterval: spread(allTokenShareInterval ?? null),
    medianStopStep: median(at),
    medianStopStepInterval: stopInterval,
    medianStopStepTied: stopInterval !== null && stopInterval.lo === stopInterval.hi ? countOf(at, stopInterval.lo) : null,
    medianFailingStopStep: median(atFailing),
  };
}
