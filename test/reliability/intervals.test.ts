/**
 * The multi-trial metrics (AllPass@k, pass@k, CR, JCR, PCR, ATFR) were printed as point figures, however few tasks
 * they stood on: `reliabilityIntervals` gives each its 95 % interval with the task as the unit. On the corpus's real
 * runs (every run of a task an attempt of it, whatever its agent): each interval holds its figure, none stands on
 * fewer than 5 tasks, the same data give the same intervals, and all the tasks give narrower ones than half of them.
 */
import { describe, expect, it } from 'vitest';
import { reliabilityIntervals, reliabilityMetrics, type Attempt, type ReliabilityIntervals, type ReliabilityMetrics } from '../../src/core/reliability/index.js';
import { MIN_RESAMPLE_UNITS } from '../../src/core/stats/bootstrap.js';
import { wilsonInterval, type Interval } from '../../src/core/stats/interval.js';
import { corpusReport } from '../report/corpus-fixture.js';

const attempts: Attempt[] = corpusReport()
  .trajectories.filter((t) => t.outcome !== 'unknown' && t.task !== null)
  .map((t) => ({
    task: t.task!, // filtered above
    run: t.run,
    outcome: t.outcome as Attempt['outcome'],
    patchLines: t.patchLines,
    editVolume: t.editVolume,
    toolCalls: t.toolCalls,
    toolFailures: t.toolFailures,
  }));
const tasks = [...new Set(attempts.map((a) => a.task))].sort();
const ofTasks = (ts: readonly string[]) => attempts.filter((a) => ts.includes(a.task));

/** Every set of `size` of `xs`, in order. */
function subsets<T>(xs: readonly T[], size: number): T[][] {
  if (size === 0) return [[]];
  return xs.flatMap((x, i) => subsets(xs.slice(i + 1), size - 1).map((rest) => [x, ...rest]));
}

/** Each interval beside the figure it belongs to. */
const PAIRS: Array<[keyof ReliabilityIntervals, keyof ReliabilityMetrics]> = [
  ['allPassConditionalInterval', 'allPassConditional'],
  ['allPassConservativeInterval', 'allPassConservative'],
  ['passAtKInterval', 'passAtK'],
  ['crInterval', 'cr'],
  ['jcrInterval', 'jcr'],
  ['pcrInterval', 'pcr'],
  ['atfrInterval', 'atfr'],
];

describe('multi-trial intervals over tasks, on the corpus runs', () => {
  const all = reliabilityIntervals(attempts);
  const m = reliabilityMetrics(attempts);

  it('gives every metric an interval over all the tasks, holding its figure', () => {
    expect(tasks.length).toBeGreaterThanOrEqual(3 * MIN_RESAMPLE_UNITS);
    for (const [iv, x] of PAIRS) {
      const interval = all[iv];
      const figure = m[x]!; // every metric is defined over these attempts
      expect(interval, iv).not.toBeNull();
      expect(interval!.lo, iv).toBeLessThanOrEqual(figure);
      expect(interval!.hi, iv).toBeGreaterThanOrEqual(figure);
      expect(interval!.hi, iv).toBeGreaterThan(interval!.lo);
    }
  });

  it('counts tasks, not attempts: a share of tasks is Wilson over the tasks', () => {
    const passed = new Set(attempts.filter((a) => a.outcome === 'pass').map((a) => a.task)).size;
    expect(all.passAtKInterval).toEqual(wilsonInterval(passed, tasks.length));
  });

  it('has no interval below MIN_RESAMPLE_UNITS tasks, however many attempts they hold', () => {
    const few = tasks.filter((t) => attempts.filter((a) => a.task === t).length >= 2).slice(0, MIN_RESAMPLE_UNITS - 1);
    expect(few.length).toBe(MIN_RESAMPLE_UNITS - 1);
    const iv = reliabilityIntervals(ofTasks(few));
    for (const [name] of PAIRS) expect(iv[name], name).toBeNull();
  });

  it('is deterministic: the same attempts and seed give the same intervals; the seed is the one PCR draws with', () => {
    expect(reliabilityIntervals([...attempts])).toEqual(all);
    expect(reliabilityIntervals(attempts, { seed: 7 }).pcrInterval).not.toEqual(all.pcrInterval);
  });

  // Half the tasks, not 5: a set of 5 gets a PCR or ATFR interval only when its tasks hold about as many attempts
  // (calls) each, which picks the alike tasks (5-task sets with a PCR interval: mean width 0.137 against 0.316 over
  // all 16 tasks, whose churn ranges from 0 to 1); every set of 8 has one for every metric but ATFR (12,803 of 12,870).
  it('is narrower over all the tasks than over half of them (the mean width over every tenth set of half the tasks)', () => {
    const width = (iv: Interval) => iv.hi - iv.lo;
    const sums = new Map<keyof ReliabilityIntervals, { width: number; sets: number }>();
    for (const set of subsets(tasks, Math.floor(tasks.length / 2)).filter((_, i) => i % 10 === 0)) {
      const iv = reliabilityIntervals(ofTasks(set));
      for (const [name] of PAIRS) {
        const s = sums.get(name) ?? { width: 0, sets: 0 };
        if (iv[name] !== null) sums.set(name, { width: s.width + width(iv[name]), sets: s.sets + 1 });
      }
    }
    for (const [name] of PAIRS) {
      const s = sums.get(name);
      expect(s?.sets, name).toBeGreaterThan(1000);
      expect(width(all[name]!), name).toBeLessThan(s!.width / s!.sets); // sets > 0: checked above
    }
  });
});
