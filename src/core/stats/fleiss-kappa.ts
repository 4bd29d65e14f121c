/** Fleiss' κ for agreement among a fixed number of raters. */

/**
 * Fleiss' κ from a subjects × categories matrix of counts: `counts[i][j]` is
 * how many raters put subject i in category j; every row must sum to the same
 * number of raters n >= 2. Null for malformed input or when chance agreement
 * is 1 (every rating in one category).
 */
export function fleissKappa(counts: ReadonlyArray<readonly number[]>): number | null {
  const N = counts.length;
  if (N === 0) return null;
  const k = counts[0]!.length;
  const n = counts[0]!.reduce((s, v) => s + v, 0);
  if (n < 2 || counts.some((r) => r.length !== k || r.reduce((s, v) => s + v, 0) !== n || r.some((v) => v < 0))) return null;
  let pBar = 0;
  const pj = new Array<number>(k).fill(0);
  for (const row of counts) {
    let agree = 0;
    row.forEach((v, j) => {
      agree += v * (v - 1);
      pj[j]! += v;
    });
    pBar += agree / (n * (n - 1));
  }
  pBar /= N;
  const pe = pj.reduce((s, v) => s + (v / (N * n)) ** 2, 0);
  if (pe >= 1) return null;
  return (pBar - pe) / (1 - pe);
}
