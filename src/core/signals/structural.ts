/**
 * Structural alignment Φstruct and set coverage Φcov (method.md sections 5.1,
 * 5.2), kept incrementally: each added state costs one equivalence check per
 * same-stage PTA node, one pointer step per reference path, and one
 * augmenting-path search.
 */
import { expectedStates } from '../pta/expected-states.js';
import type { Pta } from '../scorer-api.js';
import type { State } from '../types.js';
import { createIncrementalMatching, type IncrementalMatching } from './matching.js';
import { structuralReference, type StructuralReference } from './structural-reference.js';
import type { SignalTracker } from './tracker.js';

/** Φstruct and Φcov, both 0-100. */
export interface StructuralValues {
  struct: number;
  cov: number;
}

/** Incremental Φstruct / Φcov tracker of one candidate trajectory against a PTA (`add` ignores O states). */
export interface StructuralTracker extends SignalTracker<StructuralValues> {
  /** Φstruct = 100·2·Prec·R/(Prec + R), 0 when both are 0. */
  struct(): number;
  /** Φcov = 100·|M|/|N|, 0 when the PTA has no non-O node. */
  cov(): number;
  /** |M|: size of the maximum matching between non-O candidate states and non-O PTA nodes. */
  matched(): number;
  /** Ordered recall R: max over paths of matches / |P|. */
  recall(): number;
  /** Unordered precision |M| / |C|, 0 before any non-O candidate state. */
  precision(): number;
}

/**
 * Creates a tracker. O states are left out on both sides: `add` ignores
 * candidate O states, and PTA O nodes are dropped from the paths and from the
 * matching. Paths are those of {@link ptaPaths} with O nodes removed; a path
 * left with no node is skipped (it cannot be recalled), so a PTA without
 * non-O nodes has recall 0. Ordered recall per path is the greedy forward scan
 * of section 5.1 (one pointer per path). Equivalence is `equivalent` with
 * the given `tau`; the per-PTA part is shared ({@link structuralReference}).
 */
export function createStructuralTracker(pta: Pta, tau: number): StructuralTracker {
  return new Structural(structuralReference(pta, tau), expectedStates(pta));
}

/** The nodes adjacent to the state being added (all 0 between calls), shared by every tracker. */
let edgeScratch = new Uint8Array(256);

/** A class, not an object of closures: a session keeps one per PTA-scored trajectory, and shares the methods. */
class Structural implements StructuralTracker {
  private readonly pointers: number[];
  private readonly hits: number[];
  private readonly matching: IncrementalMatching;
  private candidates = 0;

  /** `expected`: the states the candidate is expected to reach (its rows in the matching grow toward it). */
  constructor(
    private readonly ref: StructuralReference,
    expected: number,
  ) {
    this.pointers = ref.paths.map(() => 0);
    this.hits = ref.paths.map(() => 0);
    this.matching = createIncrementalMatching(ref.nodeStates.length, expected);
  }

  add(state: State): void {
    if (state.stage === 'O') return;
    const { ref, pointers, hits } = this;
    // Scratch marks of the state's adjacent nodes, set and cleared within this call: one buffer for every tracker.
    if (edgeScratch.length < ref.nodeStates.length) edgeScratch = new Uint8Array(Math.max(ref.nodeStates.length, 2 * edgeScratch.length));
    const edge = edgeScratch;
    const paths = ref.paths;
    this.candidates++;
    const adjacent = ref.adjacent(state);
    // Indexed loops: `for...of` over the memo's frozen arrays made an iterator object per loop (0.7 KB a step in session-cost).
    // eslint-disable-next-line @typescript-eslint/prefer-for-of -- see above
    for (let k = 0; k < adjacent.length; k++) edge[adjacent[k]!] = 1;
    for (let p = 0; p < paths.length; p++) {
      const path = paths[p]!;
      for (let j = pointers[p]!; j < path.length; j++) {
        if (edge[path[j]!] === 1) {
          hits[p] = hits[p]! + 1;
          pointers[p] = j + 1;
          break;
        }
      }
    }
    // eslint-disable-next-line @typescript-eslint/prefer-for-of -- an iterator a loop otherwise (frozen arrays)
    for (let k = 0; k < adjacent.length; k++) edge[adjacent[k]!] = 0;
    this.matching.addLeft(adjacent);
  }

  recall(): number {
    const { paths } = this.ref;
    let best = 0;
    for (let p = 0; p < paths.length; p++) {
      const r = this.hits[p]! / paths[p]!.length;
      if (r > best) best = r;
    }
    return best;
  }

  precision(): number {
    return this.candidates === 0 ? 0 : this.matching.size / this.candidates;
  }

  struct(): number {
    const p = this.precision();
    const r = this.recall();
    return p + r === 0 ? 0 : (100 * 2 * p * r) / (p + r);
  }

  cov(): number {
    const n = this.ref.nodeStates.length;
    return n === 0 ? 0 : (100 * this.matching.size) / n;
  }

  value(): StructuralValues {
    return { struct: this.struct(), cov: this.cov() };
  }

  matched(): number {
    return this.matching.size;
  }
}
