/**
 * The statistics of bench/evidence.ts, behind one call each so the shared statistics
 * module the lead is adding (`src/core/stats/`: bootstrap intervals, within-source AUROC)
 * can replace them in one place: AUROC counting only pairs of the same group (a source),
 * and a seeded, stratified bootstrap interval of it.
 */
import { auroc } from '../../src/core/stats/auroc.js';

export interface Sample {
  group: string;
  passed: boolean;
  value: number;
}

/** AUROC over passing/failing pairs of the same group only (ties ½); null without such a pair. With one group it is the plain AUROC. */
export function withinGroupAuroc(samples: readonly Sample[]): number | null {
  const groups = new Map<string, { pos: number[]; neg: number[] }>();
  for (const s of samples) {
    const g = groups.get(s.group) ?? { pos: [], neg: [] };
    (s.passed ? g.pos : g.neg).push(s.value);
    groups.set(s.group, g);
  }
  let u = 0;
  let pairs = 0;
  for (const { pos, neg } of groups.values()) {
    const r = auroc(pos, neg);
    if (r === null) continue;
    u += r.u;
    pairs += r.nPos * r.nNeg;
  }
  return pairs === 0 ? null : u / pairs;
}

/** Mulberry32: a small seeded generator, so an interval is the same on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Percentile bootstrap 95 % interval of {@link withinGroupAuroc}: each resample draws, within
 * every group, its passing and its failing runs with replacement (the counts stay fixed).
 */
export function bootstrapInterval(samples: readonly Sample[], resamples: number, seed: number): [number, number] | null {
  const strata = new Map<string, Sample[]>();
  for (const s of samples) {
    const k = `${s.group}\u0000${s.passed ? 1 : 0}`;
    const list = strata.get(k) ?? [];
    list.push(s);
    strata.set(k, list);
  }
  const next = rng(seed);
  const stats: number[] = [];
  for (let b = 0; b < resamples; b++) {
    const draw: Sample[] = [];
    for (const list of strata.values()) list.forEach(() => draw.push(list[Math.floor(next() * list.length)]!));
    const a = withinGroupAuroc(draw);
    if (a !== null) stats.push(a);
  }
  if (stats.length === 0) return null;
  stats.sort((x, y) => x - y);
  const at = (q: number) => stats[Math.min(stats.length - 1, Math.max(0, Math.floor(q * stats.length)))]!;
  return [at(0.025), at(0.975)];
}
