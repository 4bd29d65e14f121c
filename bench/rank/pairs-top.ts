/**
 * Within-task pairs against the top pick, group by group (bench/rank-pairs.ts): why a score can order most
 * (passing, failing) pairs of a task right and still pick few passing runs. A group of one passing and two
 * failing runs gives its top pick to the passing run only when both of its pairs are right; a group of two
 * passing runs and one failing run, when either is. So the same share of right pairs closes more of the best-of-N
 * gap on groups of the second kind, and which groups a set holds moves the two figures apart.
 */
import type { ScoredOutcome } from '../../src/core/stats/separation.js';

/** The groups of one composition (`1P2F`: one passing run, two failing). */
export interface Composition {
  kind: string;
  groups: number;
  pairs: number;
  /** Pairs ordered right (ties ½). */
  right: number;
  /** Groups with every pair right, some, none. */
  allRight: number;
  someRight: number;
  noneRight: number;
  /** Groups whose top pick was tied with another run. */
  tiedTop: number;
  /** Expected resolved top picks (ties: the share of the tied runs that pass), random picks, oracle picks. */
  top: number;
  random: number;
  oracle: number;
}

/** Per composition, in kind order, then the total (kind `all`), over the groups of `runs` (by source + task) with a passing and a failing run. */
export function pairsAgainstTop(runs: readonly ScoredOutcome[]): Composition[] {
  const groups = new Map<string, ScoredOutcome[]>();
  for (const r of runs) {
    const k = JSON.stringify([r.source, r.task]);
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  const kinds = new Map<string, Composition>();
  const blank = (kind: string): Composition => ({ kind, groups: 0, pairs: 0, right: 0, allRight: 0, someRight: 0, noneRight: 0, tiedTop: 0, top: 0, random: 0, oracle: 0 });
  for (const g of groups.values()) {
    const pass = g.filter((r) => r.pass);
    const fail = g.filter((r) => !r.pass);
    if (pass.length === 0 || fail.length === 0) continue;
    let right = 0;
    for (const p of pass) for (const f of fail) right += p.score > f.score ? 1 : p.score === f.score ? 0.5 : 0;
    const best = Math.max(...g.map((r) => r.score));
    const tied = g.filter((r) => r.score === best);
    const c = kinds.get(`${pass.length}P${fail.length}F`) ?? blank(`${pass.length}P${fail.length}F`);
    const pairs = pass.length * fail.length;
    c.groups += 1;
    c.pairs += pairs;
    c.right += right;
    if (right === pairs) c.allRight += 1;
    else if (right === 0) c.noneRight += 1;
    else c.someRight += 1;
    if (tied.length > 1) c.tiedTop += 1;
    c.top += tied.filter((r) => r.pass).length / tied.length;
    c.random += pass.length / g.length;
    c.oracle += 1;
    kinds.set(c.kind, c);
  }
  const out = [...kinds.values()].sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  const all = blank('all');
  for (const c of out) for (const f of ['groups', 'pairs', 'right', 'allRight', 'someRight', 'noneRight', 'tiedTop', 'top', 'random', 'oracle'] as const) all[f] += c[f];
  return [...out, all];
}

/** (top − random) / (oracle − random) of a composition (null when the oracle gains nothing). */
export const gapOf = (c: Composition): number | null => (c.oracle - c.random > 1e-12 ? (c.top - c.random) / (c.oracle - c.random) : null);
