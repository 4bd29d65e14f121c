import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../../src/core/stats/interval.js';
import { firstStop, nthOccurrence, singleKindPolicy, thresholdRowFor } from './helpers.js';
import { DEFAULT_POLICY, resolvePolicy } from '../../src/core/policy.js';
import { distinct, run, states, type StateSpec } from './states.js';

const edit = (h: string): StateSpec => ({ stage: 'I', hash: h, file: 'a.py', changesFile: true });
const failTest: StateSpec = { stage: 'V', hash: 'pytest', failed: true };

describe('firstStop: where one kind stops a run at one threshold', () => {
  it('blind retry: the k-th retry of one episode, nothing changed in between', () => {
    // x, then y five times: retries at indices 2, 3, 4, 5.
    const r = run(false, [{ stage: 'E', hash: 'x' }, ...Array.from({ length: 5 }, () => ({ stage: 'V' as const, hash: 'y' }))]);
    const at = (k: number) => firstStop(r, 'blindRetry', singleKindPolicy('blindRetry', k, DEFAULT_POLICY));
    expect([1, 2, 3, 4, 5].map(at)).toEqual([2, 3, 4, 5, undefined]);
  });

  it('blind retry: an edit in between resets the episode', () => {
    const r = run(true, [{ stage: 'V', hash: 'p' }, { stage: 'V', hash: 'p' }, edit('e1'), { stage: 'V', hash: 'p' }, { stage: 'V', hash: 'p' }]);
    expect(firstStop(r, 'blindRetry', singleKindPolicy('blindRetry', 1, DEFAULT_POLICY))).toBe(1);
    expect(firstStop(r, 'blindRetry', singleKindPolicy('blindRetry', 2, DEFAULT_POLICY))).toBeUndefined();
  });

  it('regression loop: the k-th failed edit → verify cycle on one file', () => {
    const r = run(false, [edit('e1'), failTest, edit('e2'), failTest, edit('e3'), failTest, { stage: 'E', hash: 'z' }]);
    const at = (k: number) => firstStop(r, 'regressionLoop', singleKindPolicy('regressionLoop', k, DEFAULT_POLICY));
    expect([1, 2, 3, 4].map(at)).toEqual([1, 3, 5, undefined]);
  });

  it('cycle: a block of two repeated in a row', () => {
    const r = run(
      false,
      ['a', 'b', 'a', 'b', 'a', 'b', 'c'].map((hash) => ({ stage: 'E' as const, hash })),
    );
    const at = (k: number) => firstStop(r, 'cycle', singleKindPolicy('cycle', k, DEFAULT_POLICY));
    expect([2, 3, 4].map(at)).toEqual([3, 5, undefined]);
  });

  it('exploration streak: O states neither extend nor break it', () => {
    const specs: StateSpec[] = [...distinct(5), { stage: 'O', hash: 'o' }, ...distinct(5, 'y'), edit('e')];
    const r = run(false, specs);
    const at = (k: number) => firstStop(r, 'explorationStreak', singleKindPolicy('explorationStreak', k, DEFAULT_POLICY));
    expect([5, 6, 10, 11].map(at)).toEqual([4, 6, 10, undefined]);
  });

  it('low score: running total below the floor once minSteps steps were pushed', () => {
    const base = resolvePolicy({ lowScore: { minSteps: 3 } });
    if (!base.ok) throw new Error(base.error);
    const st = states(distinct(5));
    const r = { states: st, totals: [5, 5, 30, 12, 12], passed: false };
    const at = (floor: number) => firstStop(r, 'lowScore', singleKindPolicy('lowScore', floor, base.value));
    expect([10, 20, 40].map(at)).toEqual([undefined, 3, 2]);
  });

  it('the single-kind policy turns every other signal off and validates', () => {
    const p = singleKindPolicy('cycle', 3, DEFAULT_POLICY);
    expect(p.blindRetry).toEqual({ warn: null, stop: null });
    expect(p.lowScore.severity).toBeNull();
    expect(p.cycle).toEqual({ warn: null, stop: 3, minBlock: 2, maxBlock: 4 });
    expect(resolvePolicy(p).ok).toBe(true);
  });
});

describe('nthOccurrence: the naive exact-repeat rule', () => {
  it('stops at the third occurrence of one action, whatever lies in between', () => {
    const r = run(
      true,
      ['a', 'b', 'a', 'c', 'b', 'a'].map((hash) => ({ stage: 'E' as const, hash })),
    );
    expect(nthOccurrence(r, 2)).toBe(2);
    expect(nthOccurrence(r, 3)).toBe(5);
    expect(nthOccurrence(r, 4)).toBeUndefined();
  });

  it('counts a row of one threshold', () => {
    const row = thresholdRowFor(
      [
        run(false, [
          { stage: 'E', hash: 'q' },
          { stage: 'E', hash: 'q' },
          { stage: 'E', hash: 'r' },
        ]),
      ],
      'blindRetry',
      1,
    );
    expect(row).toEqual({
      threshold: 1,
      passingStopped: 0,
      failingStopped: 1,
      passing: 0,
      passingRate: null,
      passingUpper: null,
      failingRate: 1,
      failing: 1,
      failingInterval: wilsonInterval(1, 1),
      meanStepsSaved: 1,
      meanStepsSavedInterval: null,
      meanStepsSavedWhenStopped: 1,
      meanStepsSavedWhenStoppedInterval: null,
    });
  });
});
