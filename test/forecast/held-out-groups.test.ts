/**
 * Review: `train` on ../shared/calibration printed, for the PTA-mode composite, SWE-agent 0.x + gpt-4's "chosen
 * without it 0.472" (weights "temp 1") while the only other group ("other": 26 runs, all passing) has no failing run:
 * every grid point ties there, chooseMaximin returns the grid's first point, and its AUROC on SWE-agent was printed as
 * a held-out figure. A source is held out only when the groups it is left out of include one with both outcomes.
 */
import { describe, expect, it } from 'vitest';
import { choosePtaWeights, ptaGrid } from '../../src/core/forecast/pta-weights.js';
import { choosePriorWeights, type PriorSample } from '../../src/core/forecast/prior-weights.js';
import { ptaWeightsText } from '../../src/cli/train-weights-text.js';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import { ptaSamples } from './pta-samples.js';

describe('leave one source out needs another group with both outcomes', () => {
  const samples = [...ptaSamples('A', 75, 6, 1), ...ptaSamples('B', 26, 1, 2)];

  it('PTA mode: no held-out figure, and the text says why', () => {
    const r = choosePtaWeights(samples, DEFAULT_CONFIG.weights, 20, ptaGrid(0.25));
    expect(r.sources.map((s) => [s.source, s.runs, s.passing])).toEqual([
      ['A', 75, 13],
      ['other', 26, 26],
    ]);
    expect(r.heldOutPossible).toBe(false);
    expect(r.holds).toBe(false);
    expect(r.sources.map((s) => s.heldOut)).toEqual([null, null]);
    expect(r.sources[0]!.final).not.toBeNull();
    const text = ptaWeightsText(r, DEFAULT_CONFIG.weights);
    expect(text).toContain('not held out: only A has both passing and failing runs (other 26 runs, 26 passing), so weights chosen without a source would be chosen on no AUROC');
    expect(text).toMatch(/\nA +75 \(13\) +- /);
  });

  it('reference-free: the same rule', () => {
    const prior: PriorSample[] = samples.map((s) => ({ source: s.source, passed: s.passed, coh: s.coh, temp: s.temp, focus: s.coh, verify: 0, edit: 1, settle: 1, steps: s.steps }));
    const r = choosePriorWeights(prior, 20);
    expect(r.heldOutPossible).toBe(false);
    expect(r.sources.map((s) => s.heldOut)).toEqual([null, null]);
  });

  it('still holds out where two groups have both outcomes', () => {
    const r = choosePtaWeights([...ptaSamples('A', 40, 3, 1), ...ptaSamples('C', 30, 3, 3)], DEFAULT_CONFIG.weights, 20, ptaGrid(0.25));
    expect(r.heldOutPossible).toBe(true);
    expect(r.sources.every((s) => s.heldOut !== null)).toBe(true);
  });
});
