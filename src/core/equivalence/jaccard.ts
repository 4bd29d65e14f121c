function strictlySorted(xs: readonly string[]): boolean {
  for (let i = 1; i < xs.length; i++) {
    if (!((xs[i - 1] as string) < (xs[i] as string))) return false;
  }
  return true;
}

function intersectionSorted(a: readonly string[], b: readonly string[]): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as string;
    const y = b[j] as string;
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
 * Jaccard similarity |A ∩ B| / |A ∪ B| of two token sets. Token lists are
 * expected sorted and distinct (the `State.tokens` contract); other lists are
 * handled through sets. Two empty sets have similarity 0 (nothing in common).
 */
export function jaccard(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 0;
  if (strictlySorted(a) && strictlySorted(b)) {
    const inter = intersectionSorted(a, b);
    return inter / (a.length + b.length - inter);
  }
  const sa = new Set(a);
  const sb = new Set(b);
  let inter = 0;
  for (const x of sa) if (sb.has(x)) inter++;
  const union = sa.size + sb.size - inter;
  return union === 0 ? 0 : inter / union;
}
