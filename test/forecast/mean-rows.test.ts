/**
 * train's per-source tables end in a "mean" row. On ../shared/calibration the PTA-mode table's mean was over one
 * source (the only group with figures), printed as if a summary of several. A mean row now says over how many
 * sources; over fewer than 2 there is none, and a line says why.
 */
import { describe, expect, it } from 'vitest';
import { ptaWeightsText } from '../../src/cli/train-weights-text.js';
import { meanLabel, noMeanNote } from '../../src/cli/mean-rows.js';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import { choosePtaWeights, ptaGrid } from '../../src/core/forecast/pta-weights.js';
import { ptaSamples } from './pta-samples.js';

describe('mean rows over sources', () => {
  it('labels and counts', () => {
    expect(
      meanLabel([
        { source: 'a', figures: [0.6] },
        { source: 'b', figures: [0.7, null] },
        { source: 'c', figures: [null] },
      ]),
    ).toBe('mean (2 sources)');
    expect(
      meanLabel([
        { source: 'a', figures: [0.6] },
        { source: 'c', figures: [null] },
      ]),
    ).toBeNull();
    expect(
      noMeanNote([
        { source: 'a', figures: [0.6] },
        { source: 'c', figures: [null] },
      ]),
    ).toBe('no mean row: only a has figures, and a mean over one source is its own row');
  });

  it('PTA mode with one group of figures: no mean row, and the line why', () => {
    const r = choosePtaWeights([...ptaSamples('A', 75, 6, 1), ...ptaSamples('B', 26, 1, 2)], DEFAULT_CONFIG.weights, 20, ptaGrid(0.25));
    const text = ptaWeightsText(r, DEFAULT_CONFIG.weights);
    expect(text).not.toMatch(/\nmean/);
    expect(text).toContain('no mean row: only A has figures, and a mean over one source is its own row');
  });

  it('PTA mode with two groups: a mean row over 2 sources', () => {
    const r = choosePtaWeights([...ptaSamples('A', 40, 3, 1), ...ptaSamples('C', 30, 3, 3)], DEFAULT_CONFIG.weights, 20, ptaGrid(0.25));
    const text = ptaWeightsText(r, DEFAULT_CONFIG.weights);
    expect(text).toMatch(/\nmean \(2 sources\) /);
    expect(text).not.toContain('no mean row');
  });
});
