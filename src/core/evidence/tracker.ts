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
export function cappedSet(cap: number): { add(k: string): void; has(k: string): boolean; readonly size: number } {
  const set = new Set<string>();
  return {
    add(k) {
      if (set.size < cap) set.add(k);
    },
    has: (k) => set.has(k),
    get size() {
      return set.size;
    },
  };
}
