import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, policyInputSchema, resolvePolicy } from '../../src/core/policy.js';
import type { CalibrationRun, ThresholdRow } from '../../src/core/calibrate/index.js';
import { clopperPearsonUpper } from '../../src/core/stats/binomial.js';
import { calibrate, chooseLevel, minPassingFor } from './helpers.js';
import { clean, distinct, run, states } from './states.js';

/** A passing run with a 2-retry blind-retry episode (read p three times). */
const twoRetries = (passed: boolean): CalibrationRun =>
  run(passed, [
    { stage: 'E', hash: 'a' },
    { stage: 'V', hash: 'p' },
    { stage: 'V', hash: 'p' },
    { stage: 'V', hash: 'p' },
    { stage: 'E', hash: 'b' },
  ]);
/** A failing run: x, then y five times (4 retries, at indices 2..5), then three more steps: 9 states. */
const fourRetries = run(false, [{ stage: 'E', hash: 'x' }, ...Array.from({ length: 5 }, () => ({ stage: 'V' as const, hash: 'y' })), ...distinct(3, 'z')]);

function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: string }): T {
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

describe('calibrate: counts known by hand', () => {
  // 60 passing runs (2 with a 2-retry episode), 2 failing (one with 4 retries, one clean).
  const runs = [twoRetries(true), twoRetries(true), ...clean(58), fourRetries, ...clean(1, false)];
  const c = unwrap(calibrate(runs, { candidates: { blindRetry: [2, 3, 4, 5] } }));

  it('counts false stops, true stops and steps saved per threshold', () => {
    expect(c.runs).toEqual({ passing: 60, failing: 2 });
    const byT = new Map(c.kinds.blindRetry.rows.map((r) => [r.threshold, r]));
    expect(byT.get(2)).toMatchObject({ passingStopped: 2, failingStopped: 1, passingRate: 2 / 60, failingRate: 0.5, meanStepsSaved: 2.5, meanStepsSavedWhenStopped: 5 });
    expect(byT.get(2)!.passingUpper).toBeCloseTo(0.1012, 4);
    expect(byT.get(3)!.passingUpper).toBeCloseTo(0.0487, 4);
    expect(byT.get(3)).toMatchObject({ passingStopped: 0, failingStopped: 1, meanStepsSaved: 2, meanStepsSavedWhenStopped: 4 });
    expect(byT.get(4)).toMatchObject({ passingStopped: 0, failingStopped: 1, meanStepsSavedWhenStopped: 3 });
    expect(byT.get(5)).toMatchObject({ passingStopped: 0, failingStopped: 0, meanStepsSaved: 0, meanStepsSavedWhenStopped: null });
  });

  it('recommends the smallest count whose 95% upper bound is within each bound: warn 2 (2/60, <= 10.1% <= 25%), stop 3 (0/60, <= 4.9% <= 5%)', () => {
    expect(c.kinds.blindRetry.warn).toEqual({ threshold: 2, bound: 0.25 });
    expect(c.kinds.blindRetry.stop).toEqual({ threshold: 3, bound: 0.05 });
  });

  it('leaves out kinds that never fired, so they keep their defaults, and the policy validates', () => {
    expect(c.kinds.regressionLoop.stop.reason).toBe('never_fired');
    expect(c.kinds.lowScore.warn.reason).toBe('never_fired');
    expect(c.policy).toEqual({ blindRetry: { warn: 2, stop: 3 } });
    expect(policyInputSchema.safeParse(c.policy).success).toBe(true);
    expect(unwrap(resolvePolicy(c.policy)).blindRetry).toEqual({ warn: 2, stop: 3 });
  });

  it('reports the naive third-occurrence rule', () => {
    expect(c.baseline).toEqual({ n: 3, passingStopped: 2, failingStopped: 1, passingRate: 2 / 60, failingRate: 0.5 });
  });

  it('is deterministic', () => {
    expect(unwrap(calibrate(runs, { candidates: { blindRetry: [2, 3, 4, 5] } }))).toEqual(c);
  });

  it('says when there are too few runs for a bound', () => {
    // 12 passing runs: enough for the 25 % warn bound (11 with none stopped), not for the 5 % stop bound (59).
    const few = unwrap(calibrate([twoRetries(true), ...clean(11), fourRetries]));
    expect(few.kinds.blindRetry.stop).toMatchObject({ threshold: null, reason: 'too_few_runs' });
    expect(few.kinds.blindRetry.stop.note).toContain('at least 59 passing');
    // warn 2 stops 1 of 12 passing runs: upper bound 33.9 % > 25 %; warn 3 stops none (22.1 %).
    expect(few.kinds.blindRetry.warn).toMatchObject({ threshold: 3 });
    expect(few.policy.blindRetry).toEqual({ warn: 3, stop: DEFAULT_POLICY.blindRetry.stop });
    expect(resolvePolicy(few.policy).ok).toBe(true);
  });
});

describe('calibrate: the low-score floor (larger floors are more aggressive)', () => {
  const scored = (passed: boolean, totals: number[]): CalibrationRun => ({ states: states(distinct(totals.length)), totals, passed });
  const runs = [scored(true, [50, 50, 35, 35]), ...Array.from({ length: 11 }, () => scored(true, [60, 60, 60, 60])), scored(false, [50, 50, 15, 15, 15])];
  const c = unwrap(calibrate(runs, { base: unwrap(resolvePolicy({ lowScore: { minSteps: 2 } })), candidates: { lowScore: [10, 20, 30, 40] } }));

  it('counts stops per floor', () => {
    const rows = c.kinds.lowScore.rows.map((r: ThresholdRow) => [r.threshold, r.passingStopped, r.failingStopped, r.meanStepsSaved]);
    // Failing run dips to 15 at index 2 (2 steps left); passing run dips to 35 at index 2.
    expect(rows).toEqual([
      [10, 0, 0, 0],
      [20, 0, 1, 2],
      [30, 0, 1, 2],
      [40, 1, 1, 2],
    ]);
  });

  it('picks the largest floor within the warn bound and writes it as a warn floor', () => {
    // Floor 40 stops 1 of 12 passing runs (upper bound 33.9 % > 25 %); floor 30 stops none and the failing run.
    expect(c.kinds.lowScore.warn.threshold).toBe(30);
    expect(c.kinds.lowScore.stop.reason).toBe('too_few_runs');
    expect(c.policy.lowScore).toEqual({ floor: 30, minSteps: 2, severity: 'warn' });
    expect(resolvePolicy(c.policy).ok).toBe(true);
  });
});

describe('chooseLevel', () => {
  const row = (threshold: number, passingStopped: number, failingStopped: number, passing = 60): ThresholdRow => ({
    threshold,
    passingStopped,
    failingStopped,
    passing,
    passingRate: passingStopped / passing,
    passingUpper: clopperPearsonUpper(passingStopped, passing),
    failingRate: failingStopped / 5,
    failing: 5,
    failingInterval: null,
    meanStepsSaved: 0,
    meanStepsSavedInterval: null,
    meanStepsSavedWhenStopped: null,
    meanStepsSavedWhenStoppedInterval: null,
  });
  const runs = { passing: 60, failing: 5 };

  it('turns a level off when every candidate within the bound stops only passing runs', () => {
    const c = chooseLevel([row(2, 3, 0), row(3, 1, 0), row(4, 0, 0)], 'count', 0.05, runs);
    expect(c).toMatchObject({ threshold: null, reason: 'none_qualifies' });
    expect(c.note).toContain('stops a failing run');
  });

  it('judges by the upper bound, not the point estimate: 1 of 60 (1.7 %) is not within 5 %', () => {
    expect(chooseLevel([row(2, 1, 3), row(3, 0, 1)], 'count', 0.05, runs).threshold).toBe(3);
    const pointOnly = (r: ThresholdRow): ThresholdRow => ({ ...r, passingUpper: r.passingRate });
    expect(chooseLevel([pointOnly(row(2, 1, 3)), pointOnly(row(3, 0, 1))], 'count', 0.05, runs).threshold).toBe(2);
  });

  it('turns a level off when every candidate exceeds the bound', () => {
    expect(chooseLevel([row(2, 9, 3), row(3, 5, 2)], 'count', 0.05, runs)).toMatchObject({ threshold: null, reason: 'none_qualifies' });
  });

  it('needs enough passing runs for the bound and a failing run', () => {
    expect(minPassingFor(0.05)).toBe(59);
    expect(minPassingFor(0.25)).toBe(11);
    expect(minPassingFor(0)).toBe(Infinity);
    expect(chooseLevel([row(2, 0, 1, 58)], 'count', 0.05, { passing: 58, failing: 5 }).reason).toBe('too_few_runs');
    expect(chooseLevel([row(2, 0, 1)], 'count', 0.05, { passing: 60, failing: 0 }).reason).toBe('too_few_runs');
    expect(chooseLevel([row(2, 0, 1)], 'count', 0.05, runs).threshold).toBe(2);
  });
});

describe('calibrate: bad options are errors, not crashes', () => {
  it.each([
    [{ maxFalseStop: 1.5 }, 'maxFalseStop'],
    [{ maxFalseStop: 0.3, maxFalseWarn: 0.1 }, 'must not be below'],
    [{ candidates: { cycle: [1, 2] } }, 'cycle candidate 1'],
    [{ candidates: { blindRetry: [] } }, 'no candidate'],
    [{ candidates: { lowScore: [120] } }, 'lowScore candidate 120'],
  ])('%j', (options, message) => {
    const r = calibrate(clean(2), options);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(message);
  });

  it('rejects a run whose totals do not match its states', () => {
    const r = calibrate([{ states: states(distinct(3)), totals: [1, 2], passed: true }]);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain('2 totals for 3 states');
  });
});
