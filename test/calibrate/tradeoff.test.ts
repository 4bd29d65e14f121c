import { describe, expect, it } from 'vitest';
import {
  calibrateTradeoff,
  kindOptions,
  pointOf,
  policyFor,
  policyStops,
  prefilter,
  runFacts,
  runGrid,
  settingsAt,
  stopsAt,
  type GridCandidates,
  type TradeoffResult,
  type TradeoffRun,
} from '../../src/core/calibrate/index.js';
import { DEFAULT_POLICY, canStop, resolvePolicy } from '../../src/core/policy.js';
import { wilsonInterval } from '../../src/core/stats/interval.js';
import { distinct, trun, type StateSpec } from './states.js';

function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: string }): T {
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

const cost = (specs: StateSpec[], c: number): StateSpec[] => specs.map((s) => ({ ...s, cost: c }));
const retry = (n: number, h: string): StateSpec[] => Array.from({ length: n }, () => ({ stage: 'V' as const, hash: h }));

// Passing: P1 has a 2-retry episode (second retry at index 3); P2 dips below 20 only with references.
// Failing: F1 has a 4-retry episode (retries at 2..5), 9 states of 10 tokens; F2 dips to 15 at index 2
// reference-free only, 6 states of 20 tokens; F3 is clean, 4 states of 10 tokens.
const RUNS: TradeoffRun[] = [
  trun('P1', 't1', true, [{ stage: 'E', hash: 'a' }, ...retry(3, 'p'), { stage: 'E', hash: 'b' }]),
  trun('P2', 't2', true, distinct(4, 'q'), [100, 100, 100, 100], [50, 10, 10, 10]),
  trun('P3', 't3', true, distinct(4, 'r')),
  trun('P4', 't3', true, distinct(4, 's')),
  trun('F1', 't1', false, [{ stage: 'E', hash: 'x' }, ...retry(5, 'y'), ...distinct(3, 'z')]),
  trun('F2', 't2', false, cost(distinct(6, 'u'), 20), [50, 50, 15, 15, 15, 15], [50, 50, 50, 50, 50, 50]),
  trun('F3', 't4', false, distinct(4, 'v')),
];
const CANDIDATES: Partial<GridCandidates> = { blindRetry: [2, 3], regressionLoop: [], cycle: [], explorationStreak: [], noAction: [], lowScore: [{ floor: 20, minSteps: 2 }] };

describe('combined grid: counts known by hand', () => {
  const facts = RUNS.map(runFacts);
  const options = prefilter(kindOptions(RUNS, { ...CANDIDATES } as GridCandidates, DEFAULT_POLICY), facts, { maxFalseStop: 0.05, constrained: ['referenceFree'] });
  const table = runGrid(options, facts);
  const find = (br: number | null, low: boolean) => {
    for (let k = 0; k < table.size; k++) {
      const s = settingsAt(table, k);
      if (s.blindRetry === br && (s.lowScore !== null) === low) return k;
    }
    throw new Error('combination not in the grid');
  };

  it('evaluates every combination: blindRetry off/3/2 × lowScore off/<20@2', () => {
    expect(table.size).toBe(6);
    expect(options.blindRetry.map((o) => o.value)).toEqual([3, 2]);
  });

  it('blindRetry 3 + lowScore <20@2: stops F1 at 4 and F2 at 2 reference-free; F1 only with references', () => {
    const k = find(3, true);
    expect(stopsAt(table, k, 'referenceFree', RUNS.length)).toEqual([null, null, null, null, 4, 2, null]);
    expect(stopsAt(table, k, 'reference', RUNS.length)).toEqual([null, 1, null, null, 4, null, null]);
    const free = pointOf(facts, stopsAt(table, k, 'referenceFree', RUNS.length));
    expect(free).toEqual({
      passing: 4,
      failing: 3,
      passingStopped: 0,
      passingRate: 0,
      passingUpper: expect.closeTo(0.52713, 5),
      failingStopped: 2,
      failingRate: 2 / 3,
      failingInterval: wilsonInterval(2, 3),
      failingSteps: 19,
      failingStepsSaved: 4 + 3,
      failingStepsShare: 7 / 19,
      // 3 failing runs: under MIN_RESAMPLE_UNITS, no bootstrap interval.
      failingStepsShareInterval: null,
      failingTokens: 250,
      failingTokensSaved: 40 + 60,
      failingTokenShare: 100 / 250,
      failingTokenShareInterval: null,
      allTokenShare: 100 / 420,
      allTokenShareInterval: null,
      medianStopStep: 3,
      // 2 stopped runs: under 6, no distribution-free interval of the median.
      medianStopStepInterval: null,
      medianStopStepTied: null,
      medianFailingStopStep: 3,
    });
    expect(table.passingStopped.reference[k]).toBe(1);
    expect(table.tokensSaved.reference[k]).toBe(40);
  });

  it('blindRetry 2 + lowScore: one false stop (P1 at 3), F1 at 3 and F2 at 2', () => {
    const p = pointOf(facts, stopsAt(table, find(2, true), 'referenceFree', RUNS.length));
    expect(p).toMatchObject({ passingStopped: 1, passingRate: 0.25, failingStopped: 2, failingStepsSaved: 8, failingTokensSaved: 110, medianStopStep: 3, medianFailingStopStep: 2.5 });
  });

  it('every grid combination stops exactly where the full policy replayed through the engine stops', () => {
    for (let k = 0; k < table.size; k++) {
      const policy = policyFor(settingsAt(table, k), DEFAULT_POLICY);
      expect(resolvePolicy(policy).ok).toBe(true);
      for (const m of ['reference', 'referenceFree'] as const) expect(stopsAt(table, k, m, RUNS.length)).toEqual(policyStops(RUNS, m, policy));
    }
  });
});

// Four passing runs: the one-sided 95 % Clopper-Pearson bound is 52.7 % with none stopped, 75.1 % with one,
// so a 60 % bound allows no false stop and an 80 % bound one.
describe('calibrateTradeoff: the choice under the bound', () => {
  const run = (o: Parameters<typeof calibrateTradeoff>[1]): TradeoffResult => unwrap(calibrateTradeoff(RUNS, { candidates: CANDIDATES, ...o }));

  it('reference-free only: blindRetry 3 + the low-score floor (100 tokens, no false stop)', () => {
    const r = run({ maxFalseStop: 0.6, constrained: ['referenceFree'] });
    expect(r.chosen.settings).toEqual({ blindRetry: 3, regressionLoop: null, cycle: null, explorationStreak: null, noAction: null, lowScore: { floor: 20, minSteps: 2 } });
    expect(r.choice).toMatchObject({ feasible: 4, maxPassingStopped: 0, warnOnly: false, bound: 'clopper-pearson', confidence: 0.95 });
    expect(r.chosen.modes.referenceFree.passingUpper).toBeCloseTo(0.5271, 4);
    expect(r.chosen.modes.referenceFree).toMatchObject({ passingStopped: 0, failingTokensSaved: 100 });
    expect(r.chosen.runs.map((x) => x.stopAt.referenceFree)).toEqual([null, null, null, null, 4, 2, null]);
    expect(r.chosen.policy.lowScore).toEqual({ floor: 20, minSteps: 2, severity: 'stop' });
  });

  it('both modes: the floor stops P2 with references, so only blindRetry 3 qualifies', () => {
    const r = run({ maxFalseStop: 0.6 });
    expect(r.chosen.settings).toMatchObject({ blindRetry: 3, lowScore: null });
    expect(r.chosen.modes.reference).toMatchObject({ passingStopped: 0, failingStopped: 1, failingTokensSaved: 40 });
  });

  it('a looser bound buys the false stop of blindRetry 2', () => {
    const r = run({ maxFalseStop: 0.8, constrained: ['referenceFree'] });
    expect(r.chosen.settings).toMatchObject({ blindRetry: 2, lowScore: { floor: 20, minSteps: 2 } });
    expect(r.chosen.modes.referenceFree.failingTokensSaved).toBe(110);
  });

  it('the Wilson bound is the looser one: 75.1 % (Clopper-Pearson) vs 64.4 % (Wilson) with one of four stopped', () => {
    expect(run({ maxFalseStop: 0.7, constrained: ['referenceFree'] }).chosen.settings.blindRetry).toBe(3);
    expect(run({ maxFalseStop: 0.7, constrained: ['referenceFree'], bound: 'wilson' }).chosen.settings.blindRetry).toBe(2);
  });

  it('refuses to stop on too few passing runs: a warn-only policy that warns where the point estimate would stop', () => {
    const r = run({ maxFalseStop: 0.05 });
    expect(r.choice).toMatchObject({ warnOnly: true, maxPassingStopped: -1, passingNeeded: 59, feasible: 0 });
    expect(r.choice.pointChoice).toMatchObject({ blindRetry: 3 });
    expect(r.choice.note).toContain('only 4 passing runs');
    expect(r.choice.note).toContain('only warns');
    expect(canStop(r.chosen.policy)).toBe(false);
    // The warn source's earlier warn is kept (DEFAULT_POLICY warns at 2 retries); without one, it warns at the point stop.
    expect(r.chosen.policy.blindRetry).toEqual({ warn: 2, stop: null });
    const noWarn = run({ maxFalseStop: 0.05, warnSource: { ...DEFAULT_POLICY, blindRetry: { warn: null, stop: null } } });
    expect(noWarn.chosen.policy.blindRetry).toEqual({ warn: 3, stop: null });
    expect(r.chosen.modes.referenceFree.passingStopped + r.chosen.modes.referenceFree.failingStopped).toBe(0);
  });

  it('reports the default policy and a Pareto front that rises with false stops', () => {
    const r = run({ maxFalseStop: 0.8, constrained: ['referenceFree'] });
    expect(r.baseline.settings.blindRetry).toBe(DEFAULT_POLICY.blindRetry.stop);
    expect(r.baseline.modes.referenceFree.failingStopped).toBe(0);
    const front = r.front.referenceFree.map((p) => [p.modes.referenceFree.passingStopped, p.modes.referenceFree.failingTokensSaved]);
    expect(front).toEqual([
      [0, 100],
      [1, 110],
    ]);
  });

  it('says when the bound leaves nothing to stop, and rejects bad input', () => {
    const none = unwrap(
      calibrateTradeoff(
        RUNS.filter((r) => r.id !== 'F1' && r.id !== 'F2'),
        { candidates: CANDIDATES, constrained: ['referenceFree'], maxFalseStop: 0.6 },
      ),
    );
    expect(none.chosen.settings).toEqual({ blindRetry: null, regressionLoop: null, cycle: null, explorationStreak: null, noAction: null, lowScore: null });
    expect(none.choice.note).toContain('every stop is off');
    expect(calibrateTradeoff(RUNS, { maxFalseStop: 2 })).toMatchObject({ ok: false });
    const bad = { ...RUNS[0]!, totals: { referenceFree: [1], reference: [1] } };
    const r = calibrateTradeoff([bad]);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain('P1');
  });
});
