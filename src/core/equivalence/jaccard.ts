/** True when a token list is sorted and distinct (the `State.tokens` contract). */
export function strictlySorted(xs: readonly string[]): boolean {
  for (let i = 1; i < xs.length; i++) {
    if (!(xs[i - 1]! < xs[i]!)) return false;
  }
  return true;
}

function intersectionSorted(a: readonly string[], b: readonly string[]): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      n++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return n;
}

/**
 * Jaccard similarity |A ∩ B| / |A ∪ B| of two token sets given as sorted,
 * distinct lists (the `State.tokens` contract, checked where states enter from
 * outside: the state builder makes them so, `ptaFromJson` validates them).
 * Two empty sets have similarity 0 (nothing in common).
 */
export function jaccard(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 0;
  const inter = intersectionSorted(a, b);
  return inter / (a.length + b.length - inter);
}
