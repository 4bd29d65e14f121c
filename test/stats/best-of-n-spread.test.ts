/**
 * audit21: `report --by-reference` on ../shared/calibration printed best-of-N among the in-folder groups as
 * `oracle 1.000 [1.000, 1.000]`: every one of those 25 groups holds a passing run (a task is scored in-folder only
 * with passing runs to build its PTA from), so every resample gives 1 and the percentile "interval" has no width,
 * reading as certainty. Where the draws collapse onto one value there is now no interval (`[-]`, null).
 * The groups: the first 6 in-folder SWE-agent 0.x + gpt-4 tasks of that report (scores rounded to 0.1).
 */
import { describe, expect, it } from 'vitest';
import { bestOfN } from '../../src/core/stats/best-of-n.js';
import type { ScoredOutcome } from '../../src/core/stats/separation.js';

const GROUPS: Record<string, Array<[boolean, number]>> = {
  'django__django-10914': [
    [true, 80.1],
    [true, 81.9],
    [false, 79.2],
  ],
  'django__django-11039': [
    [true, 67.9],
    [true, 69.7],
    [true, 55.7],
  ],
  'django__django-11049': [
    [false, 71.4],
    [true, 77.3],
    [true, 82.3],
  ],
  'django__django-11099': [
    [true, 60.1],
    [true, 71.9],
    [true, 76.9],
  ],
  'django__django-12286': [
    [true, 75.1],
    [true, 75.0],
    [true, 74.2],
  ],
  'django__django-12453': [
    [true, 77.9],
    [true, 80.7],
    [true, 79.2],
  ],
};
const runs: ScoredOutcome[] = Object.entries(GROUPS).flatMap(([task, rs]) => rs.map(([pass, score]) => ({ source: 'SWE-agent 0.x + gpt-4', task, pass, score })));

describe('best-of-N: no zero-width interval', () => {
  it('every group holds a pass and its top pick passes: oracle and top 1, no interval; random still has one', () => {
    const b = bestOfN(runs, { reps: 1000, seed: 1 });
    expect(b.groups).toBe(6);
    expect(b.oracle).toMatchObject({ rate: 1, interval: null });
    expect(b.top).toMatchObject({ rate: 1, interval: null });
    expect(b.random.rate).toBeCloseTo(16 / 18, 12);
    expect(b.random.interval).not.toBeNull();
    expect(b.random.interval!.lo).toBeLessThan(b.random.interval!.hi);
  });
});
