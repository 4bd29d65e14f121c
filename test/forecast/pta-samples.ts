/** Synthetic PTA-mode samples for the weight-choice tests: `n` runs of `source`, every `passEvery`-th passing. */
import type { PtaSample } from '../../src/core/forecast/pta-weights.js';
import { rng } from './rng.js';

export function ptaSamples(source: string, n: number, passEvery: number, seed: number): PtaSample[] {
  const r = rng(seed);
  return Array.from({ length: n }, (_, i) => {
    const passed = passEvery === 1 || i % passEvery === 0;
    return { source, passed, struct: 100 * r() + (passed ? 20 : 0), cov: 100 * r(), coh: r(), temp: r(), steps: 10 + Math.round(40 * r()) };
  });
}
