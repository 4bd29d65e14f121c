import { describe, expect, it } from 'vitest';
import { auroc } from '../../src/core/stats/auroc.js';
import { bestOfN, groupPick } from '../../src/core/stats/best-of-n.js';
import { aurocInterval, meanInterval } from '../../src/core/stats/bootstrap.js';
import { calibrationError } from '../../src/core/stats/calibration-error.js';
import { clopperPearsonInterval, intervalsOverlap, wilsonInterval } from '../../src/core/stats/interval.js';
import { seededRandom } from '../../src/core/stats/rng.js';
import { separation, type ScoredOutcome } from '../../src/core/stats/separation.js';

const run = (source: string, task: string | null, pass: boolean, score: number): ScoredOutcome => ({ source, task, pass, score });

describe('two-sided rate intervals', () => {
  it('Wilson and Clopper-Pearson match published values (R: prop.test(correct=FALSE), binom.test)', () => {
    const w = wilsonInterval(5, 10);
    expect(w.lo).toBeCloseTo(0.2366, 4);
    expect(w.hi).toBeCloseTo(0.7634, 4);
    const cp = clopperPearsonInterval(5, 10);
    expect(cp.lo).toBeCloseTo(0.1871, 4);
    expect(cp.hi).toBeCloseTo(0.8129, 4);
    expect(clopperPearsonInterval(0, 10)).toMatchObject({ lo: 0 });
    expect(clopperPearsonInterval(0, 10).hi).toBeCloseTo(0.3085, 4);
    expect(wilsonInterval(0, 10).hi).toBeCloseTo(0.2775, 4);
    expect(wilsonInterval(0, 0)).toEqual({ lo: 0, hi: 1, level: 0.95 });
  });

  it('overlap is symmetric and strict outside', () => {
    const a = wilsonInterval(1, 20);
    const b = wilsonInterval(19, 20);
    expect(intervalsOverlap(a, b)).toBe(false);
    expect(intervalsOverlap(a, wilsonInterval(3, 20))).toBe(true);
    expect(intervalsOverlap(wilsonInterval(3, 20), a)).toBe(true);
  });
});

describe('seeded bootstrap', () => {
  it('gives the same interval for the same seed and another for another seed', () => {
    const xs = Array.from({ length: 40 }, (_, i) => (i * 37) % 11);
    expect(meanInterval(xs, { seed: 7 })).toEqual(meanInterval(xs, { seed: 7 }));
    expect(meanInterval(xs, { seed: 7 })).not.toEqual(meanInterval(xs, { seed: 8 }));
    const r = seededRandom(3);
    const draws = Array.from({ length: 1000 }, () => r());
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
  });

  it('an AUROC interval holds the estimate and narrows with n', () => {
    const pos = Array.from({ length: 30 }, (_, i) => i + 10);
    const neg = Array.from({ length: 30 }, (_, i) => i);
    const every5 = (xs: number[]) => xs.filter((_, i) => i % 5 === 0);
    const estimate = auroc(pos, neg)!.auroc;
    const small = aurocInterval(every5(pos), every5(neg))!;
    const large = aurocInterval(pos, neg)!;
    expect(large.lo).toBeLessThan(estimate);
    expect(large.hi).toBeGreaterThan(estimate);
    expect(large.hi - large.lo).toBeLessThan(small.hi - small.lo);
    expect(aurocInterval([], neg)).toBeNull();
  });
});

describe('separation within source, within task and pooled', () => {
  it('a score that only tells sources apart is at chance within source but high pooled, and sourceOnly says so', () => {
    const runs: ScoredOutcome[] = [];
    for (let i = 0; i < 10; i++) {
      runs.push(run('A', `t${i}`, i < 8, 0.9)); // A: 8 of 10 pass, all score 0.9
      runs.push(run('B', `t${i}`, i < 2, 0.1)); // B: 2 of 10 pass, all score 0.1
    }
    const s = separation(runs);
    expect(s.withinSource.mean).toBeNull();
    expect(s.withinSource.counted).toBe(0); // A has 2 failing, B 2 passing: under the default minimum of 3
    expect(separation(runs, { minPerClass: 2 }).withinSource.mean).toBe(0.5);
    expect(s.pooled.auroc).toBeCloseTo(0.8, 6);
    expect(s.pooled.sourceOnly).toBeCloseTo(0.8, 6);
    expect(s.withinTask.pairs).toBe(0); // no task has a passing and a failing run of one source
  });

  it('within task counts only pairs of one source and one task, ties as one half', () => {
    const runs = [run('A', 'x', true, 3), run('A', 'x', false, 1), run('A', 'x', false, 3), run('B', 'x', false, 9), run('A', 'y', true, 0), run('A', 'y', false, 1)];
    const s = separation(runs);
    // x: (3>1) + ½(3=3) = 1.5 of 2 pairs; y: 0 of 1; B's run pairs with nothing.
    expect(s.withinTask.pairs).toBe(3);
    expect(s.withinTask.tasks).toBe(2);
    expect(s.withinTask.auroc).toBeCloseTo(0.5, 10);
  });

  it('the headline is the mean of the counted sources and its interval is reproducible', () => {
    const runs: ScoredOutcome[] = [];
    for (let i = 0; i < 12; i++) {
      runs.push(run('A', `a${i}`, i % 2 === 0, i % 2 === 0 ? 10 + i : i)); // A: AUROC 0.9-ish
      runs.push(run('B', `b${i}`, i % 3 === 0, -i)); // B: lower scores pass less often
    }
    const s = separation(runs);
    const a = s.withinSource.sources.find((x) => x.source === 'A')!;
    const b = s.withinSource.sources.find((x) => x.source === 'B')!;
    expect(s.withinSource.counted).toBe(2);
    expect(s.withinSource.mean).toBeCloseTo((a.auroc! + b.auroc!) / 2, 12);
    expect(s.withinSource.interval).toEqual(separation(runs).withinSource.interval);
    expect(s.withinSource.interval!.lo).toBeLessThanOrEqual(s.withinSource.mean!);
  });
});

describe('best-of-N', () => {
  it('averages tied top picks and measures the gap closed', () => {
    expect(groupPick('g', [run('A', 't', true, 2), run('A', 't', false, 2), run('A', 't', false, 1)])).toMatchObject({ top: 0.5, random: 1 / 3, oracle: 1 });
    const runs = [
      run('A', 't1', true, 5),
      run('A', 't1', false, 1), // top right
      run('A', 't2', false, 5),
      run('A', 't2', true, 1), // top wrong
      run('A', 't3', false, 1),
      run('A', 't3', false, 2), // nothing to win
      run('A', 't4', true, 1), // a single run: not a group
    ];
    const b = bestOfN(runs);
    expect(b.groups).toBe(3);
    expect(b.top.resolved).toBe(1);
    expect(b.random.resolved).toBe(1);
    expect(b.oracle.resolved).toBe(2);
    expect(b.gapClosed).toBe(0);
  });
});

describe('calibration error', () => {
  it('is the count-weighted gap between predicted and observed per bin', () => {
    const preds = [
      { p: 0.05, pass: false },
      { p: 0.05, pass: false },
      { p: 0.95, pass: true },
      { p: 0.95, pass: false },
    ];
    const c = calibrationError(preds);
    // bin 0: predicted .05, observed 0 -> .05 x 2/4; bin 9: predicted .95, observed .5 -> .45 x 2/4
    expect(c.ece).toBeCloseTo(0.25, 10);
    expect(c.bins.filter((b) => b.n > 0).map((b) => b.lo)).toEqual([0, 0.9]);
    expect(c.meanPredicted).toBeCloseTo(0.5, 10);
    expect(c.observedRate).toBe(0.25);
    expect(calibrationError([]).ece).toBeNull();
  });
});
