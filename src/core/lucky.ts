/**
 * The Lucky taxonomy (method.md section 7): why a passing trajectory scored
 * in the Lucky tier. First match wins, in the order C1, C2, C4, C3, C5.
 */
import type { LuckyThresholds } from './config.js';
import type { ReferenceStats } from './scorer-api.js';
import { median } from './stats/descriptive.js';
import type { LuckyCategory, ScoreVector, State, WasteItem } from './types.js';
import { wastedStepSet } from './waste/index.js';

/** Reference facts the taxonomy compares with (medians over the PTA's references). */
export interface LuckyReference {
  medianLength: number;
  implTargets: number;
}

export interface LuckyInput {
  states: readonly State[];
  score: ScoreVector;
  waste: readonly WasteItem[];
  /** Absent when scored reference-free: C3, C4 and C5 then cannot apply. */
  reference?: LuckyReference;
}

/** Median length and median implementation targets of a PTA's references; undefined when it has none. */
export function luckyReference(references: readonly ReferenceStats[]): LuckyReference | undefined {
  if (references.length === 0) return undefined;
  // Non-empty, so both medians are numbers.
  return { medianLength: median(references.map((r) => r.length))!, implTargets: median(references.map((r) => r.implTargets))! };
}

/** Distinct I-stage targets: the scope of each I state, else its file. */
export function implTargets(states: readonly State[]): number {
  const set = new Set<string>();
  for (const s of states) {
    const target = s.stage === 'I' ? (s.scope ?? s.file) : undefined;
    if (target !== undefined) set.add(target);
  }
  return set.size;
}

/**
 * Classifies a Lucky pass:
 * C1 at most `c1MaxStates` states and no V state;
 * C2 distinct wasted steps >= `c2MinWasteShare` of the states, or Φcoh < `c2MaxCoh`;
 * C4 length >= `c4LengthFactor` × reference median length and E share >= `c4MinExploreShare`;
 * C3 Φcov < `c3MaxCov` and fewer distinct I targets than the reference's median;
 * C5 Φstruct < `c5MaxStruct`, Φcoh >= `c5MinCoh` and a V state after the last I state
 *    (with no I state, any V state);
 * otherwise unclassified.
 */
export function classifyLucky(input: LuckyInput, th: LuckyThresholds): LuckyCategory {
  const { states, score, reference } = input;
  const n = states.length;
  let hasV = false;
  let explore = 0;
  let vAfterI = false;
  for (let i = 0; i < n; i++) {
    const stage = states[i]!.stage;
    if (stage === 'V') {
      hasV = true;
      vAfterI = true;
    } else if (stage === 'I') {
      vAfterI = false;
    } else if (stage === 'E') explore += 1;
  }
  if (n <= th.c1MaxStates && !hasV) return 'C1';
  if ((n > 0 && wastedStepSet(input.waste).size >= th.c2MinWasteShare * n) || score.coh < th.c2MaxCoh) return 'C2';
  if (reference !== undefined && n > 0 && n >= th.c4LengthFactor * reference.medianLength && explore / n >= th.c4MinExploreShare) return 'C4';
  if (reference !== undefined && score.cov !== null && score.cov < th.c3MaxCov && implTargets(states) < reference.implTargets) return 'C3';
  if (score.struct !== null && score.struct < th.c5MaxStruct && score.coh >= th.c5MinCoh && vAfterI) return 'C5';
  return 'unclassified';
}
