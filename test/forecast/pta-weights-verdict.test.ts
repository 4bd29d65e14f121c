/**
 * audit29: `train`'s PTA-mode verdict said "a single signal beats the composite on some source (or fewer than 2
 * sources to leave out)": a "beats" decided on points with no paired interval, and one of two reasons without saying
 * which. The bundled training text (data/forecast-training.txt) is the case: SWE-agent 0.x + gpt-4 held out 0.478
 * [0.25, 0.68] beside struct alone 0.715 [0.51, 0.87], intervals that overlap. The rows below are its figures.
 */
import { describe, expect, it } from 'vitest';
import { ptaWeightsText } from '../../src/cli/train-weights-text.js';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import type { PtaSourceResult, PtaWeightsReport } from '../../src/core/forecast/pta-weights.js';

const row = (source: string, runs: number, passing: number, heldOut: number | null, single: [number, number, number, number]): PtaSourceResult => ({
  source,
  runs,
  passing,
  chosen: { struct: 0.5, cov: 0.5, coh: 0, temp: 0 },
  heldOut,
  shipped: 0.61,
  final: 0.655,
  single: { struct: single[0], cov: single[1], coh: single[2], temp: single[3] },
  lengthAlone: 0.585,
});

function report(sources: PtaSourceResult[], heldOutPossible: boolean, holds: boolean): PtaWeightsReport {
  return {
    minRuns: 20,
    objective: 'worst margin over the best single signal (ties: mean margin)',
    sources,
    mean: { heldOut: null, shipped: null, final: null, single: { struct: null, cov: null, coh: null, temp: null }, lengthAlone: null },
    chosen: { struct: 0.2, cov: 0.15, coh: 0.3, temp: 0.35 },
    holds,
    heldOutPossible,
  };
}

describe("train's PTA-mode verdict says which reason, and compares points as points", () => {
  it('a signal above the composite held out: named with both figures, per source, never "beats"', () => {
    const r = report([row('SWE-agent 0.x + gpt-4', 78, 63, 0.478, [0.715, 0.485, 0.587, 0.529]), row('other', 54, 49, 0.678, [0.633, 0.816, 0.706, 0.604])], true, false);
    const text = ptaWeightsText(r, DEFAULT_CONFIG.weights);
    expect(text).not.toContain('beats');
    expect(text).toContain(
      "does not hold: held out, a single signal's AUROC is above the composite's (points compared, no paired interval) on SWE-agent 0.x + gpt-4: struct 0.715 against 0.478; other: cov 0.816 against 0.678; the weights in force",
    );
  });

  it('nothing held out: says so, and only that', () => {
    const r = report([row('A', 75, 13, null, [0.6, 0.5, 0.5, 0.5]), row('other', 26, 26, null, [0.5, 0.5, 0.5, 0.5])], false, false);
    const text = ptaWeightsText(r, DEFAULT_CONFIG.weights);
    expect(text).toContain('does not hold: fewer than 2 sources to leave out, so nothing was held out; the weights in force');
    expect(text).not.toContain('a single signal');
  });

  it('holds: on points, and says so', () => {
    const r = report([row('A', 75, 13, 0.8, [0.6, 0.5, 0.5, 0.5]), row('B', 60, 20, 0.7, [0.6, 0.5, 0.5, 0.5])], true, true);
    expect(ptaWeightsText(r, DEFAULT_CONFIG.weights)).toContain("holds: held out, the composite's AUROC is at least every single signal's on every source (points compared, no paired interval)");
  });
});
