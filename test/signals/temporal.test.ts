import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPta } from '../../src/core/pta/index.js';
import { createTemporalTracker, jsd, referenceWindows } from '../../src/core/signals/temporal.js';
import { windowBounds, windowDistribution, windowDistributions, type Windows } from '../../src/core/stage-windows.js';
import type { Stage, StageDist } from '../../src/core/types.js';
import { makeState } from '../equivalence/state-factory.js';

const stageArb = fc.constantFrom<Stage>('E', 'I', 'V', 'O');
const distArb: fc.Arbitrary<StageDist> = fc.tuple(fc.nat(20), fc.nat(20), fc.nat(20), fc.nat(20)).map((c) => windowDistribution(c, 0.01));
const windowsArb: fc.Arbitrary<Windows> = fc.tuple(distArb, distArb, distArb);

describe('windows', () => {
  it('splits n states into floor(k·n/3) bounds', () => {
    expect(windowBounds(0)).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
    ]);
    expect(windowBounds(1)).toEqual([
      [0, 0],
      [0, 0],
      [0, 1],
    ]);
    expect(windowBounds(2)).toEqual([
      [0, 0],
      [0, 1],
      [1, 2],
    ]);
    expect(windowBounds(4)).toEqual([
      [0, 1],
      [1, 2],
      [2, 4],
    ]);
    expect(windowBounds(5)).toEqual([
      [0, 1],
      [1, 3],
      [3, 5],
    ]);
    expect(windowBounds(9)).toEqual([
      [0, 3],
      [3, 6],
      [6, 9],
    ]);
  });

  it('smooths with alpha and makes an empty window uniform', () => {
    expect(windowDistribution([2, 0, 0, 0], 0.01)).toEqual([2.01 / 2.04, 0.01 / 2.04, 0.01 / 2.04, 0.01 / 2.04]);
    expect(windowDistribution([0, 0, 0, 0], 0.01)).toEqual([0.25, 0.25, 0.25, 0.25]);
    expect(windowDistribution([0, 0, 0, 0], 0)).toEqual([0.25, 0.25, 0.25, 0.25]);
    expect(windowDistributions(['E', 'E', 'I', 'V', 'O'], 0)).toEqual([
      [1, 0, 0, 0],
      [0.5, 0.5, 0, 0],
      [0, 0, 0.5, 0.5],
    ]);
  });
});

describe('jsd', () => {
  it('is 0 for identical distributions, 1 for disjoint ones, near 1 when smoothed', () => {
    const p: StageDist = [0.1, 0.2, 0.3, 0.4];
    expect(jsd(p, p)).toBe(0);
    expect(jsd([1, 0, 0, 0], [0, 1, 0, 0])).toBe(1);
    const a = windowDistribution([50, 0, 0, 0], 0.01);
    const b = windowDistribution([0, 0, 50, 0], 0.01);
    expect(jsd(a, b)).toBeGreaterThan(0.99);
    expect(jsd(a, b)).toBeLessThan(1);
  });

  it('matches a hand computation: [1,0,0,0] vs [0.5,0.5,0,0]', () => {
    // M = [0.75, 0.25]; 0.5·log2(1/0.75) + 0.5·(0.5·log2(0.5/0.75) + 0.5·log2(0.5/0.25))
    const expected = 0.5 * Math.log2(4 / 3) + 0.5 * (0.5 * Math.log2(2 / 3) + 0.5);
    expect(jsd([1, 0, 0, 0], [0.5, 0.5, 0, 0])).toBeCloseTo(expected, 14);
    expect(expected).toBeCloseTo(0.3113, 4);
  });

  it('is symmetric and within [0, 1]', () => {
    fc.assert(
      fc.property(distArb, distArb, (p, q) => {
        expect(jsd(p, q)).toBe(jsd(q, p));
        expect(jsd(p, q)).toBeGreaterThanOrEqual(0);
        expect(jsd(p, q)).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe('temporal tracker', () => {
  it('equals the batch formula on every prefix exactly', () => {
    fc.assert(
      fc.property(fc.array(stageArb, { maxLength: 40 }), windowsArb, fc.constantFrom(0.01, 0.5), (stages, ref, alpha) => {
        const tracker = createTemporalTracker(ref, alpha);
        const batch = (prefix: Stage[]) => {
          const w = windowDistributions(prefix, alpha);
          return 1 - (jsd(w[0], ref[0]) + jsd(w[1], ref[1]) + jsd(w[2], ref[2])) / 3;
        };
        expect(tracker.value()).toBe(batch([]));
        stages.forEach((s, i) => {
          tracker.add(makeState({ stage: s }));
          expect(tracker.value()).toBe(batch(stages.slice(0, i + 1)));
        });
      }),
      { numRuns: 300 },
    );
  });

  it('scores a reference profile 1 against itself', () => {
    const stages: Stage[] = ['E', 'E', 'E', 'I', 'I', 'V', 'V', 'V', 'O'];
    const pta = buildPta('t', [stages.map((stage) => makeState({ stage })), stages.map((stage) => makeState({ stage }))]);
    const tracker = createTemporalTracker(referenceWindows(pta), 0.01);
    for (const stage of stages) tracker.add(makeState({ stage }));
    expect(tracker.value()).toBeCloseTo(1, 12);
    expect(tracker.length).toBe(9);
  });

  it('starts from the uniform profile', () => {
    const ref: Windows = [
      [1, 0, 0, 0],
      [0, 1, 0, 0],
      [0, 0, 1, 0],
    ];
    expect(createTemporalTracker(ref, 0.01).value()).toBeCloseTo(1 - jsd([0.25, 0.25, 0.25, 0.25], [1, 0, 0, 0]), 14);
  });

  it('averages the PTA window sums over its references', () => {
    const pta = buildPta('t', [[makeState({ stage: 'E' })], [makeState({ stage: 'I' })]], { alpha: 0 });
    expect(referenceWindows(pta)).toEqual([
      [0.25, 0.25, 0.25, 0.25],
      [0.25, 0.25, 0.25, 0.25],
      [0.5, 0.5, 0, 0],
    ]);
    expect(referenceWindows(buildPta('t', []))[0]).toEqual([0.25, 0.25, 0.25, 0.25]);
  });
});
