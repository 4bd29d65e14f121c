import { describe, expect, it } from 'vitest';
import { dominates, paretoFronts, reliabilityMetrics, reliabilityVector, type Attempt, type AttemptOutcome } from '../../src/core/reliability/index.js';

const at = (task: string, run: string, outcome: AttemptOutcome, extra: Partial<Attempt> = {}): Attempt => ({
  task,
  run,
  outcome,
  patchLines: 0,
  editVolume: 0,
  toolCalls: 10,
  toolFailures: 0,
  ...extra,
});

describe('reliability metrics on a hand-built attempt table', () => {
  // 4 tasks × 3 runs. T1 all pass; T2 pass, fail, pass; T3 pass, censored, pass; T4 fail ×3.
  const attempts: Attempt[] = [
    at('T1', 'r1', 'pass', { patchLines: 4, editVolume: 8, toolFailures: 1 }),
    at('T1', 'r2', 'pass', { patchLines: 4, editVolume: 4 }),
    at('T1', 'r3', 'pass'),
    at('T2', 'r1', 'pass'),
    at('T2', 'r2', 'fail', { toolFailures: 3 }),
    at('T2', 'r3', 'pass'),
    at('T3', 'r1', 'pass'),
    at('T3', 'r2', 'censored', { toolCalls: 0 }),
    at('T3', 'r3', 'pass'),
    at('T4', 'r1', 'fail'),
    at('T4', 'r2', 'fail'),
    at('T4', 'r3', 'fail', { patchLines: 2, editVolume: 1 }),
  ];
  const m = reliabilityMetrics(attempts);
  it('counts attempts and completions by hand', () => {
    expect(m).toMatchObject({ tasks: 4, kMin: 3, kMax: 3, planned: 12, completed: 11, passes: 7 });
    expect(m.pAttempt).toBeCloseTo(7 / 11, 12);
    expect(m.cr).toBeCloseTo(11 / 12, 12);
    expect(m.jcr).toBeCloseTo(3 / 4, 12);
  });
  it('AllPass@k: conditional drops T3, conservative counts it as failed', () => {
    expect(m.uncensoredTasks).toBe(3);
    expect(m.allPassConditional).toBeCloseTo(1 / 3, 12); // T1 of {T1, T2, T4}
    expect(m.allPassConservative).toBeCloseTo(1 / 4, 12); // T1 of all four
    expect(m.passAtK).toBeCloseTo(3 / 4, 12); // T1, T2, T3
  });
  it('PCR is the mean per-attempt churn over completed attempts; ATFR is pooled', () => {
    // churns: T1r1 1 − 4/8 = 0.5; T1r2 0; T4r3 patch > volume → clamped 0; the rest no edits → 0.
    expect(m.pcr).toBeCloseTo(0.5 / 11, 12);
    expect(m.pcrMedian).toBe(0);
    expect(m.atfr).toBeCloseTo(4 / 110, 12); // censored attempt excluded
  });
  it('undefined metrics are null, not NaN', () => {
    const c = reliabilityMetrics([at('T', 'r', 'censored', { toolCalls: 0 })]);
    expect(c.pAttempt).toBeNull();
    expect(c.allPassConditional).toBeNull();
    expect(c.allPassConservative).toBe(0);
    expect(c.cr).toBe(0);
    expect(c.atfr).toBeNull();
  });
});

describe('Pareto fronts', () => {
  it('sorts vectors into non-dominated fronts', () => {
    const v = [
      [1, 1],
      [2, 0],
      [0, 2],
      [0.5, 0.5],
      [0, 0],
      [0.5, 0.5],
    ];
    expect(paretoFronts(v)).toEqual([1, 1, 1, 2, 3, 2]);
    expect(dominates([1, 1], [1, 0])).toBe(true);
    expect(dominates([1, 1], [1, 1])).toBe(false);
  });
  it('uses ⟨p_attempt, AllPass@k, CR, −ATFR, −PCR⟩ with null as worst', () => {
    const good = reliabilityMetrics([at('A', 'r1', 'pass'), at('A', 'r2', 'pass')]);
    const bad = reliabilityMetrics([at('A', 'r1', 'pass'), at('A', 'r2', 'fail', { toolFailures: 5 })]);
    const cens = reliabilityMetrics([at('A', 'r1', 'censored'), at('A', 'r2', 'censored')]);
    expect(reliabilityVector(good)).toEqual([1, 1, 1, -0, -0]);
    expect(paretoFronts([good, bad, cens].map(reliabilityVector))).toEqual([1, 2, 3]);
  });
});
