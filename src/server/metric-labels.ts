/**
 * Label values from names clients choose (agent, model): never longer than {@link MAX_LABEL} characters, so a
 * scrape stays small whatever the names; a longer name keeps a readable prefix and a hash of the whole, so two
 * long names that share the prefix stay apart. Control and invisible format characters are shown as `\uXXXX`
 * escapes, as everywhere a tenant's names reach a person (src/printable.ts; a scrape is read in terminals and
 * dashboards): the exposition format escapes only `\`, `"` and newlines.
 */
import { createHash } from 'node:crypto';
import { escapeControl } from '../printable.js';

export const MAX_LABEL = 64;

export function labelValue(name: string | null | undefined): string {
  const s = escapeControl(name ?? '');
  if (s.length <= MAX_LABEL) return s;
  return `${s.slice(0, MAX_LABEL - 13)}~${createHash('sha256').update(name!).digest('hex').slice(0, 12)}`;
}

/**
 * The `n` entries to label by name: the most `weight`ed first, with no tenant taking more than its share
 * (n / tenants, at least 1) until every tenant had its turn; the rest are summed under `other`.
 */
export function topByTenant<E extends { tenant: string }>(entries: Iterable<E>, n: number, weight: (e: E) => number): E[] {
  const sorted = [...entries].sort((a, b) => weight(b) - weight(a));
  const tenants = new Set(sorted.map((e) => e.tenant)).size;
  const share = Math.max(1, Math.floor(n / Math.max(1, tenants)));
  const taken = new Map<string, number>();
  const chosen = new Set<E>();
  for (const e of sorted) {
    if (chosen.size >= n) break;
    const k = taken.get(e.tenant) ?? 0;
    if (k >= share) continue;
    taken.set(e.tenant, k + 1);
    chosen.add(e);
  }
  for (const e of sorted) if (chosen.size < n) chosen.add(e);
  return [...chosen];
}
