/**
 * Choosing the reference-free weights (issue 15): the grid, the fast AUROC it
 * is scored with, and the leave-one-source-out protocol (a held-out source
 * never influences the weights it is scored with).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { priorComposite } from '../../src/core/composite.js';
import { GroupAuroc, mergeAuroc, sortedAuroc } from '../../src/core/forecast/grid-auroc.js';
import { chooseMaximin } from '../../src/core/forecast/maximin.js';
import { choosePriorWeights, PRIOR_SIGNAL_NAMES, priorGrid, priorScore, type PriorSample } from '../../src/core/forecast/prior-weights.js';
import { auroc } from '../../src/core/stats/auroc.js';
import { rng } from './rng.js';

/**
 * Synthetic samples of one source: passing runs are shorter when `lengthTells`,
 * and have edited a source file more often when `editTells`.
 */
function source(name: string, n: number, seed: number, o: { lengthTells: boolean; editTells: boolean }): PriorSample[] {
  const r = rng(seed);
  return Array.from({ length: n }, (_, i) => {
    const passed = i % 3 === 0;
    const steps = Math.round(10 + 60 * r() + (o.lengthTells && !passed ? 30 : 0));
    const edit = o.editTells ? (passed ? (r() < 0.95 ? 1 : 0) : r() < 0.5 ? 1 : 0) : r() < 0.8 ? 1 : 0;
    return { source: name, passed, coh: r(), temp: r(), focus: r(), verify: r() < 0.5 ? 1 : 0, edit, settle: 1 / (1 + Math.floor(4 * r())), steps };
  });
}

describe('grid AUROC', () => {
  it('equals the Mann-Whitney AUROC of stats/auroc exactly, ties included', () => {
    const val = fc.integer({ min: 0, max: 6 }).map((x) => x / 2);
    fc.assert(
      fc.property(fc.array(val, { minLength: 1, maxLength: 40 }), fc.array(val, { minLength: 1, maxLength: 40 }), (pos, neg) => {
        const want = auroc(pos, neg)!.auroc;
        expect(mergeAuroc(Float64Array.from(pos).sort(), Float64Array.from(neg).sort())).toBe(want);
        expect(sortedAuroc({ pos, neg }, (x) => x)).toBe(want);
        const g = new GroupAuroc({ pos, neg });
        expect(g.at(1, (x, k) => [x, -x][k]!)).toBe(
          auroc(
            pos.map((x) => -x),
            neg.map((x) => -x),
          )!.auroc,
        );
        expect(g.at(0, (x) => x)).toBe(want);
      }),
      { numRuns: 500 },
    );
    expect(sortedAuroc({ pos: [], neg: [1] }, (x: number) => x)).toBeNull();
    expect(Number.isNaN(new GroupAuroc({ pos: [1], neg: [] as number[] }).at(0, (x) => x))).toBe(true);
  });
});

describe('the maximin search', () => {
  /** The choice by brute force: every group's AUROC at every point, then the best worst margin (ties: mean, then earlier). */
  function bruteForce(groups: Array<{ pos: number[][]; neg: number[][]; baseline: number | null }>, points: number, sets: number[][]): number[] {
    const m = groups.map((g) =>
      Array.from({ length: points }, (_, k) =>
        g.baseline === null
          ? Number.NaN
          : auroc(
              g.pos.map((x) => x[k]!),
              g.neg.map((x) => x[k]!),
            )!.auroc - g.baseline,
      ),
    );
    return sets.map((set) => {
      let at = 0,
        min = -Infinity,
        mean = -Infinity;
      for (let k = 0; k < points; k++) {
        const v = set.map((s) => m[s]![k]!).filter((x) => !Number.isNaN(x));
        if (v.length === 0) continue;
        const lo = Math.min(...v),
          avg = v.reduce((a, b) => a + b, 0) / v.length;
        if (lo > min + 1e-12 || (Math.abs(lo - min) <= 1e-12 && avg > mean + 1e-12)) [at, min, mean] = [k, lo, avg];
      }
      return at;
    });
  }

  it('picks, for every training set, what a brute-force search over every group and point picks', () => {
    // Each run holds one score per grid point (few distinct values, so ties are common).
    const run = (points: number) => fc.array(fc.integer({ min: 0, max: 4 }), { minLength: points, maxLength: points });
    const group = (points: number) =>
      fc.record({
        pos: fc.array(run(points), { minLength: 1, maxLength: 12 }),
        neg: fc.array(run(points), { minLength: 1, maxLength: 30 }),
        baseline: fc.option(fc.double({ min: 0.3, max: 0.8, noNaN: true }), { nil: null, freq: 6 }),
      });
    const input = fc.integer({ min: 1, max: 40 }).chain((points) => fc.record({ points: fc.constant(points), groups: fc.array(group(points), { minLength: 1, maxLength: 5 }) }));
    fc.assert(
      fc.property(input, ({ points, groups }) => {
        const all = groups.map((_, i) => i);
        const sets = [all, ...all.map((i) => all.filter((j) => j !== i))];
        expect(chooseMaximin(groups, points, (x, k) => x[k]!, sets)).toEqual(bruteForce(groups, points, sets));
      }),
      { numRuns: 400 },
    );
  });
});

describe('the weight grid', () => {
  it('holds every point of the 0.1 simplex over the seven weights once (points without brevity at one L)', () => {
    const grid = priorGrid();
    // C(16, 6) points per L; the C(15, 5) without brevity only at the first L.
    expect(grid.length).toBe(8008 + 2 * (8008 - 3003));
    const keys = new Set(grid.map((c) => JSON.stringify(c)));
    expect(keys.size).toBe(grid.length);
    for (const c of grid) {
      const sum = PRIOR_SIGNAL_NAMES.reduce((s, k) => s + c.weights[k], 0);
      expect(sum).toBeCloseTo(1, 9);
    }
  });

  it('scores a sample exactly as the scorer composite does', () => {
    const s = source('x', 30, 3, { lengthTells: true, editTells: true });
    for (const c of priorGrid().filter((_, i) => i % 997 === 0)) {
      for (const x of s) {
        const total = priorComposite({ struct: null, cov: null, coh: x.coh, temp: x.temp }, c.weights, {
          focus: x.focus,
          verify: x.verify,
          brevity: c.brevitySteps / (c.brevitySteps + x.steps),
          edit: x.edit,
          settle: x.settle,
        }).total;
        expect(priorScore(x, c)).toBe(total);
      }
    }
  });
});

describe('leave-one-source-out choice', () => {
  const samples = [
    ...source('a', 90, 1, { lengthTells: true, editTells: true }),
    ...source('b', 90, 2, { lengthTells: true, editTells: true }),
    ...source('c', 90, 3, { lengthTells: false, editTells: true }),
    ...source('tiny', 12, 4, { lengthTells: false, editTells: true }),
  ];

  it('pools small sources as "other", and each held-out AUROC is the one of the weights chosen without it', () => {
    const r = choosePriorWeights(samples, 20, priorGrid([15, 60], 0.25));
    expect(r.sources.map((s) => s.source)).toEqual(['a', 'b', 'c', 'other']);
    for (const s of r.sources) {
      const held = samples.filter((x) => (s.source === 'other' ? x.source === 'tiny' : x.source === s.source));
      const score = (x: PriorSample) => priorScore(x, s.chosen);
      expect(s.heldOut).toBe(auroc(held.filter((x) => x.passed).map(score), held.filter((x) => !x.passed).map(score))!.auroc);
      expect(s.lengthAlone).toBe(
        auroc(
          held.filter((x) => x.passed).map((x) => -x.steps),
          held.filter((x) => !x.passed).map((x) => -x.steps),
        )!.auroc,
      );
      expect(s.single.edit).toBe(
        auroc(
          held.filter((x) => x.passed).map((x) => x.edit),
          held.filter((x) => !x.passed).map((x) => x.edit),
        )!.auroc,
      );
    }
    // Φedit carries information on every source: the choice on all of them weighs it.
    expect(r.chosen.weights.edit).toBeGreaterThan(0);
  });

  it('never looks at the held-out source: reversing its outcomes leaves its chosen weights unchanged', () => {
    const grid = priorGrid([15, 60], 0.25);
    const before = choosePriorWeights(samples, 20, grid);
    const flipped = samples.map((x) => (x.source === 'c' ? { ...x, passed: !x.passed } : x));
    const after = choosePriorWeights(flipped, 20, grid);
    const pick = (r: typeof before, name: string) => r.sources.find((s) => s.source === name)!;
    expect(pick(after, 'c').chosen).toEqual(pick(before, 'c').chosen);
    expect(pick(after, 'c').heldOut).toBeCloseTo(1 - pick(before, 'c').heldOut!, 12);
    // ...while the other sources' choices may see it (it is in their training side).
    expect(after.chosen).toBeDefined();
  });

  it('maximises the worst margin over run length on the training sources', () => {
    const grid = priorGrid([15, 60], 0.25);
    const r = choosePriorWeights(samples, 20, grid);
    const groups = ['a', 'b', 'c', 'other'].map((n) => samples.filter((x) => (n === 'other' ? x.source === 'tiny' : x.source === n)));
    const aur = (g: PriorSample[], f: (x: PriorSample) => number) => auroc(g.filter((x) => x.passed).map(f), g.filter((x) => !x.passed).map(f))!.auroc;
    const worst = (c: (typeof grid)[number]) => Math.min(...groups.map((g) => aur(g, (x) => priorScore(x, c)) - aur(g, (x) => -x.steps)));
    const best = Math.max(...grid.map(worst));
    expect(worst(r.chosen)).toBeCloseTo(best, 12);
    // Each held-out choice is the brute-force maximin over the other sources (its first best point on the grid).
    r.sources.forEach((s, i) => {
      const others = groups.filter((_, j) => j !== i);
      const w = (c: (typeof grid)[number]) => Math.min(...others.map((g) => aur(g, (x) => priorScore(x, c)) - aur(g, (x) => -x.steps)));
      const top = Math.max(...grid.map(w));
      expect(w(s.chosen)).toBeCloseTo(top, 12);
    });
  });
});
