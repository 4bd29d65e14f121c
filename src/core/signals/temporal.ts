/**
 * Temporal profile similarity Φtemp (method.md section 5.4): stage
 * distributions over three contiguous windows compared with Jensen-Shannon
 * divergence, kept incrementally with the stage counts of each window.
 */
import type { Pta } from '../scorer-api.js';
import { STAGE_INDEX, UNIFORM, type Windows } from '../stage-windows.js';
import type { StageDist, State } from '../types.js';
import type { SignalTracker } from './tracker.js';

// The window arithmetic Φtemp works in (stage-windows.ts sits below pta/ and signals/, which both use it).
export { DEFAULT_ALPHA, windowBounds, windowDistribution, windowDistributions, type StageCounts, type Windows } from '../stage-windows.js';

function klTerm(p: number, m: number): number {
  return p > 0 ? p * Math.log2(p / m) : 0;
}

/** Jensen-Shannon divergence in bits (base 2), in [0, 1]; 0·log 0 = 0. */
export function jsd(p: StageDist, q: StageDist): number {
  return jsd4(p[0], p[1], p[2], p[3], q);
}

/** {@link jsd} with the candidate distribution in four numbers (the tracker's path allocates nothing per step). */
function jsd4(p0: number, p1: number, p2: number, p3: number, q: StageDist): number {
  let s = 0;
  for (let i = 0; i < 4; i++) {
    const pi = i === 0 ? p0 : i === 1 ? p1 : i === 2 ? p2 : p3;
    const qi = q[i]!;
    const m = (pi + qi) / 2;
    s += 0.5 * klTerm(pi, m) + 0.5 * klTerm(qi, m);
  }
  return Math.min(1, Math.max(0, s));
}

/** Φtemp = 1 − (1/3)·Σ_k JSD(cand_k ‖ ref_k), computed as 1 − (j1 + j2 + j3) / 3. */
export function temporalFromWindows(candidate: Windows, reference: Windows): number {
  const sum = jsd(candidate[0], reference[0]) + jsd(candidate[1], reference[1]) + jsd(candidate[2], reference[2]);
  return 1 - sum / 3;
}

/** The PTA's reference windows: `windowSums / k`; uniform when the PTA has no reference. */
export function referenceWindows(pta: Pta): Windows {
  const k = pta.references.length;
  if (k === 0) return [[...UNIFORM], [...UNIFORM], [...UNIFORM]];
  // Shared by the scorers of a PTA (one copy per task, not per session); a grown PTA has new window sums.
  const memo = windowsMemo.get(pta.windowSums);
  if (memo?.k === k) return memo.windows;
  const windows = pta.windowSums.map((w) => w.map((x) => x / k)) as Windows;
  windowsMemo.set(pta.windowSums, { k, windows });
  return windows;
}

const windowsMemo = new WeakMap<Pta['windowSums'], { k: number; windows: Windows }>();

/** Incremental Φtemp tracker: `value()` is Φtemp of the states added so far, O(1). */
export interface TemporalTracker extends SignalTracker<number> {
  readonly length: number;
}

/**
 * Creates an incremental Φtemp tracker: the stage counts of each window, moved along with its bounds,
 * make each `value()` O(1) although window boundaries move as `n` grows, and every value
 * equals Φtemp computed from scratch on the prefix (test/signals/conformance.test.ts). With no state added
 * all three windows are empty, hence uniform, and `value()` is the similarity
 * of the uniform profile to the reference.
 */
export function createTemporalTracker(reference: Windows, alpha: number): TemporalTracker {
  return new Temporal(reference, alpha);
}

/** A class, not an object of closures: a session keeps one per trajectory, and shares the methods. */
class Temporal implements TemporalTracker {
  // The stage of each state (two bits, 16 to an int, in an array of small integers grown by doubling: 100 states in
  // 8 numbers) and the stage counts of the three windows [0, a), [a, b), [b, n), moved along as n grows (each bound
  // moves by at most one state per step): exact integer counts, as prefix sums gave, at two bits a state instead of
  // 16 bytes. Plain arrays, not typed ones: a typed array's view and buffer objects cost ~180 B each before its
  // elements (bench/README.md, "Memory per session, fourteenth pass"); the values are the same int32s.
  private stages: number[] = [0, 0, 0, 0];
  private readonly counts: number[] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  private n = 0;
  private a = 0;
  private b = 0;
  // The first two windows' JSDs as last computed, and which of them had their counts moved since (bit k: window k):
  // the middle window moves when b does (two steps in three), the first when a does (one in three); the last grows
  // every step, so it is computed every time. Two JSDs a step on average instead of three; the same arithmetic on the
  // same counts: equal bits.
  private j0 = 0;
  private j1 = 0;
  private stale = 3;

  constructor(
    private readonly reference: Windows,
    private readonly alpha: number,
  ) {}

  private stage(i: number): number {
    return (this.stages[i >> 4]! >>> ((i & 15) * 2)) & 3;
  }

  /** JSD of window k against reference window k: windowDistribution and jsd's arithmetic, in the same order. */
  private windowJsd(k: number): number {
    const { counts, alpha } = this;
    const c0 = counts[4 * k]!;
    const c1 = counts[4 * k + 1]!;
    const c2 = counts[4 * k + 2]!;
    const c3 = counts[4 * k + 3]!;
    const total = c0 + c1 + c2 + c3;
    if (total === 0) return jsd4(UNIFORM[0], UNIFORM[1], UNIFORM[2], UNIFORM[3], this.reference[k]!);
    const d = total + 4 * alpha;
    return jsd4((c0 + alpha) / d, (c1 + alpha) / d, (c2 + alpha) / d, (c3 + alpha) / d, this.reference[k]!);
  }

  add(state: State): void {
    const k = STAGE_INDEX[state.stage];
    const counts = this.counts;
    if (this.n >> 4 === this.stages.length) {
      const grown = new Array<number>(this.stages.length * 2).fill(0);
      for (let i = 0; i < this.stages.length; i++) grown[i] = this.stages[i]!;
      this.stages = grown;
    }
    this.stages[this.n >> 4]! |= k << ((this.n & 15) * 2);
    counts[8 + k]! += 1;
    let stale = this.stale;
    const n = ++this.n;
    // windowBounds(n): a = ⌊n/3⌋, b = ⌊2n/3⌋; the state at the old b moves into the middle window, the one at the old a into the first.
    const nb = Math.floor((2 * n) / 3);
    if (nb > this.b) {
      const s = this.stage(this.b);
      counts[8 + s]! -= 1;
      counts[4 + s]! += 1;
      this.b = nb;
      stale |= 2;
    }
    const na = Math.floor(n / 3);
    if (na > this.a) {
      const s = this.stage(this.a);
      counts[4 + s]! -= 1;
      counts[s]! += 1;
      this.a = na;
      stale |= 3;
    }
    this.stale = stale;
  }

  value(): number {
    // temporalFromWindows(windowBounds(n) → windowDistribution, reference), without the arrays; only the windows whose counts moved recomputed.
    const stale = this.stale;
    if (stale !== 0) {
      if ((stale & 1) !== 0) this.j0 = this.windowJsd(0);
      if ((stale & 2) !== 0) this.j1 = this.windowJsd(1);
      this.stale = 0;
    }
    const sum = this.j0 + this.j1 + this.windowJsd(2);
    return 1 - sum / 3;
  }

  get length(): number {
    return this.n;
  }
}
