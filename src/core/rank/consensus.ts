/**
 * A consensus reference from a group of runs of one task, for ranking where no run is known to
 * pass and no reference exists (issue 26 item 3, docs/rank.md). A run's footprint is where it
 * changed source: the files and enclosing scopes of its implementation states (stage I: the
 * labeler's source edits). A run scores the mean Jaccard similarity of its footprint to every other
 * run's: where most runs edit, those runs come first; a run that changed no source agrees with
 * nothing and scores 0. It reads states only, so a live session and a finished log score alike.
 */
import type { State } from '../types.js';
import { runToEnd } from '../in-steps.js';

/** `f:file` and `s:file::scope` of every source edit of `states`. */
export function locationItems(states: readonly State[]): Set<string> {
  const out = new Set<string>();
  for (const s of states) {
    if (s.stage !== 'I' || s.file === undefined) continue;
    out.add(`f:${s.file}`);
    if (s.scope !== undefined) out.add(`s:${s.scope}`);
  }
  return out;
}

/** |a ∩ b| / |a ∪ b|; 0 when either is empty (agreeing on changing nothing is no consensus). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let both = 0;
  for (const k of small) if (large.has(k)) both += 1;
  return both / (a.size + b.size - both);
}

/**
 * Each run's mean similarity to the other runs of the group (0 in a group of one). The footprints are interned to
 * sorted integer ids first, so every pair is one merge of two integer arrays: 64 runs of 10,000 locations each (a
 * server's `POST /v1/rank` over live sessions, on the event loop) take a few hundred ms, not the seconds that
 * string-keyed set lookups took for the 2,016 pairs. The server runs it in steps ({@link consensusInSteps}).
 */
export function consensusScores(footprints: ReadonlyArray<ReadonlySet<string>>): number[] {
  return runToEnd(consensusInSteps(footprints));
}

/** Locations interned, or ids merged, between two yields of {@link consensusInSteps} (a few ms of work). */
export const CONSENSUS_WORK_PER_STEP = 1 << 18;

/** {@link consensusScores} in steps: it yields after about {@link CONSENSUS_WORK_PER_STEP} items of work (T71). */
export function* consensusInSteps(footprints: ReadonlyArray<ReadonlySet<string>>): Generator<void, number[]> {
  const n = footprints.length;
  const ids = new Map<string, number>();
  const interned = new Map<ReadonlySet<string>, Int32Array>();
  const sorted: Int32Array[] = [];
  let work = 0;
  for (const f of footprints) {
    const known = interned.get(f);
    if (known !== undefined) {
      sorted.push(known);
      continue;
    }
    const out = new Int32Array(f.size);
    let k = 0;
    for (const item of f) {
      let id = ids.get(item);
      if (id === undefined) ids.set(item, (id = ids.size));
      out[k++] = id;
    }
    interned.set(f, out.sort());
    sorted.push(out);
    if ((work += f.size) >= CONSENSUS_WORK_PER_STEP) yield void (work = 0);
  }
  const sums = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const s = sortedJaccard(sorted[i]!, sorted[j]!);
      sums[i] = sums[i]! + s;
      sums[j] = sums[j]! + s;
      if ((work += sorted[i]!.length + sorted[j]!.length) >= CONSENSUS_WORK_PER_STEP) yield void (work = 0);
    }
  }
  return sums.map((s) => (n < 2 ? 0 : s / (n - 1)));
}

/** {@link jaccard} of two sorted arrays of distinct ids. */
function sortedJaccard(a: Int32Array, b: Int32Array): number {
  if (a.length === 0 || b.length === 0) return 0;
  if (a === b) return 1;
  let both = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      both += 1;
      i += 1;
      j += 1;
    } else if (x < y) i += 1;
    else j += 1;
  }
  return both / (a.length + b.length - both);
}
