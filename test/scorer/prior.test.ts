import { describe, expect, it } from 'vitest';
import { priorFromPtas, UNIFORM_PRIOR } from '../../src/core/prior.js';
import { buildPta } from '../../src/core/pta/index.js';
import { windowDistributions } from '../../src/core/stage-windows.js';
import type { Stage } from '../../src/core/types.js';
import { fromStages } from '../fixtures/make-state.js';

describe('priorFromPtas', () => {
  it('is uniform without references', () => {
    expect(priorFromPtas([])).toEqual({ windows: UNIFORM_PRIOR.windows, references: 0 });
    expect(priorFromPtas([buildPta('t', [])]).references).toBe(0);
    expect(UNIFORM_PRIOR.windows[1]).toEqual([0.25, 0.25, 0.25, 0.25]);
  });

  it('pools every reference of every PTA: mean of their window distributions', () => {
    const refs = ['EEEIIIVVV', 'EEIV', 'EOIIVV'];
    const a = buildPta('a', [fromStages(refs[0]!), fromStages(refs[1]!)]);
    const b = buildPta('b', [fromStages(refs[2]!)]);
    const prior = priorFromPtas([a, b]);
    expect(prior.references).toBe(3);
    const dists = refs.map((r) => windowDistributions([...r] as Stage[], 0.01));
    for (let w = 0; w < 3; w++) {
      for (let i = 0; i < 4; i++) {
        const mean = dists.reduce((s, d) => s + d[w]![i]!, 0) / 3;
        expect(prior.windows[w]?.[i]).toBeCloseTo(mean, 14);
      }
      expect(prior.windows[w]?.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 12);
    }
  });
});
