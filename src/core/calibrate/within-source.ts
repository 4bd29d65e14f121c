/**
 * A policy's rates averaged within source (each source's rate, then their mean over the sources with passing and
 * failing runs), with 95 % intervals; they were printed as bare points (`passing stopped 0.6%` over 11 sources;
 * audit26). The two rates take Price and Bonett's interval of a mean of rates (a source of one run keeps its width);
 * the token share, a ratio of sums, a bootstrap resampling each source's failing runs, only where every source has
 * MIN_RESAMPLE_UNITS of them (a source of 1-4 runs resamples to itself or nearly, which would read narrow).
 */
import { bootstrapDraws, resampleIndices, resamplable, spread, type BootstrapOptions } from '../stats/bootstrap.js';
import { meanOfRatesInterval } from '../stats/interval.js';
import type { RunFacts } from './evaluate.js';
import type { StopVector } from './stop-vectors.js';
import type { SourceMean, TradeoffRun, WithinSourceMeans } from './tradeoff-types.js';

/** One source's failing runs as the token draws need them: tokens saved and tokens of each. */
interface FailingSide {
  saved: Float64Array;
  tokens: Float64Array;
}

const share = (s: FailingSide, idx: readonly number[]): number => {
  const all = idx.reduce((a, i) => a + s.tokens[i]!, 0);
  return all === 0 ? 0 : idx.reduce((a, i) => a + s.saved[i]!, 0) / all;
};

function tokenShareMean(sides: readonly FailingSide[], options: BootstrapOptions): SourceMean {
  const meanOf = (pick: (s: FailingSide) => number[]) => sides.reduce((a, s) => a + share(s, pick(s)), 0) / sides.length;
  const mean = meanOf((s) => Array.from(s.saved, (_, i) => i));
  if (!sides.every((s) => resamplable(s.saved.length))) return { mean, interval: null };
  return { mean, interval: spread(bootstrapDraws((random) => meanOf((s) => resampleIndices(random, s.saved.length)), options)) };
}

/** The within-source means of `stops` over `runs` (aligned with `facts`); null when no source has passing and failing runs. */
export function withinSourceMeans(runs: readonly TradeoffRun[], facts: readonly RunFacts[], stops: StopVector, options: BootstrapOptions = {}): WithinSourceMeans | null {
  const bySource = new Map<string, number[]>();
  runs.forEach((r, i) => {
    if (r.source === undefined) return;
    const idx = bySource.get(r.source);
    if (idx === undefined) bySource.set(r.source, [i]);
    else idx.push(i);
  });
  const at = (i: number) => stops[i] ?? null;
  const passing: Array<{ k: number; n: number }> = [];
  const failing: Array<{ k: number; n: number }> = [];
  const sides: FailingSide[] = [];
  let units = 0;
  for (const idx of bySource.values()) {
    const pass = idx.filter((i) => runs[i]!.passed);
    const fail = idx.filter((i) => !runs[i]!.passed);
    if (pass.length === 0 || fail.length === 0) continue;
    units += idx.length;
    passing.push({ k: pass.filter((i) => at(i) !== null).length, n: pass.length });
    failing.push({ k: fail.filter((i) => at(i) !== null).length, n: fail.length });
    sides.push({ saved: Float64Array.from(fail, (i) => (at(i) === null ? 0 : (facts[i]!.tokensAfter[at(i)!] ?? 0))), tokens: Float64Array.from(fail, (i) => facts[i]!.tokens) });
  }
  if (sides.length === 0) return null;
  const rates = (gs: ReadonlyArray<{ k: number; n: number }>): SourceMean => ({ mean: gs.reduce((a, g) => a + g.k / g.n, 0) / gs.length, interval: meanOfRatesInterval(gs) });
  return {
    counted: sides.length,
    sources: bySource.size,
    runs: units,
    passingRate: rates(passing),
    failingRate: rates(failing),
    failingTokenShare: tokenShareMean(sides, options),
  };
}
