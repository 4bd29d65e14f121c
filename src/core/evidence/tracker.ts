/**
 * The one interface of an evidence tracker (issue 26): fed a run's steps in order (each
 * as its {@link StepEvidence}), its value is always the evidence of the prefix fed so far,
 * equal to the evidence computed from scratch on that prefix
 * (test/evidence/conformance.test.ts checks each). Every `add` is O(1) in the run's length:
 * any set of file names is capped.
 */
import type { StepEvidence } from './step-evidence.js';

export interface EvidenceSignal<V> {
  add(e: StepEvidence): void;
  value(): V;
}

/** Distinct keys kept by a capped set; keys past the cap are not added (and so never found). */
export function cappedSet(cap: number): CappedSet {
  return new CappedSet(cap);
}

/**
 * A class, not an object literal: a literal with a getter (`size`) is built by the runtime, ~1 µs each, and every
 * evidence tracker (one per scored session) holds three.
 */
export class CappedSet {
  private readonly set = new Set<string>();
  constructor(private readonly cap: number) {}
  add(k: string): void {
    if (this.set.size < this.cap) this.set.add(k);
  }
  has(k: string): boolean {
    return this.set.has(k);
  }
  get size(): number {
    return this.set.size;
  }
}
