/**
 * A seeded pseudo-random generator for resampling (mulberry32: 32-bit state, period 2^32, fast and
 * good enough for bootstrap draws). The same seed always gives the same draws, so every interval the
 * tools print is reproducible.
 */
export type Random = () => number;

/** Uniform draws in [0, 1) from a 32-bit seed. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniform integer in [0, n). */
export function randomIndex(random: Random, n: number): number {
  return Math.floor(random() * n);
}

/** Shuffles `xs` in place (Fisher-Yates with `random`) and returns it: the same seed, the same order. */
export function shuffleInPlace<T>(xs: T[], random: Random): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = randomIndex(random, i + 1);
    const x = xs[i]!;
    xs[i] = xs[j]!;
    xs[j] = x;
  }
  return xs;
}
