/**
 * What the repeat detectors fire on one run, as the annotation set of
 * test/fixtures/detector-annotations.jsonl records it: the waste items of the
 * four repeat categories, the blind retries Φcoh counts (one per retried step),
 * and the early-stop signals of the three repeat kinds under the policy the set
 * was annotated with (fixed here, so a change of DEFAULT_POLICY does not move it).
 */
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import { DEFAULT_POLICY, type Policy } from '../../src/core/policy.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { scoreSteps } from '../../src/core/scorer.js';
import { createRetryDetector } from '../../src/core/signals/repeats.js';
import type { Severity, Step } from '../../src/core/types.js';
import { wasteReport } from '../../src/core/waste/index.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';

export const DETECTORS = ['blind_retry', 'coherence_retry', 'redundant_step', 'regression_loop', 'cyclic_pattern', 'signal:blind_retry', 'signal:regression_loop', 'signal:cycle'] as const;
export type DetectorName = (typeof DETECTORS)[number];

/** The levels the annotated signals fired at (DEFAULT_POLICY's repeat kinds when the set was written). */
export const ANNOTATION_POLICY: Policy = {
  ...DEFAULT_POLICY,
  blindRetry: { warn: 3, stop: null },
  regressionLoop: { warn: 2, stop: null },
  cycle: { warn: 2, stop: 4, minBlock: 2, maxBlock: 4 },
};

export interface FiredItem {
  detector: DetectorName;
  /** The steps the item names (a retry: the step it repeats, then the retries; a coherence retry: the retried step). */
  steps: number[];
  /** A signal's step and severity. */
  t?: number;
  severity?: Severity;
}

/** The key an item is matched by: detector, steps and, for a signal, its step and severity. */
export function itemKey(item: FiredItem): string {
  return `${item.detector}|${item.steps.join(',')}|${item.t ?? ''}|${item.severity ?? ''}`;
}

const WASTE: Readonly<Record<string, DetectorName>> = { blind_retry: 'blind_retry', redundant_step: 'redundant_step', regression_loop: 'regression_loop', cyclic_pattern: 'cyclic_pattern' };
const SIGNALS: Readonly<Record<string, DetectorName>> = { blind_retry: 'signal:blind_retry', regression_loop: 'signal:regression_loop', cycle: 'signal:cycle' };

/** Every item the repeat detectors fire on `steps`, scored reference-free (the repeat detectors read no reference). */
export function firedItems(steps: readonly Step[]): FiredItem[] {
  const { results, report } = scoreSteps(steps, { reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers(), policy: ANNOTATION_POLICY });
  const states = results.map((r) => r.state);
  const out: FiredItem[] = [];
  for (const w of wasteReport(states, { settings: DEFAULT_CONFIG.waste, tau: DEFAULT_CONFIG.tau })) {
    const detector = WASTE[w.category];
    if (detector !== undefined) out.push({ detector, steps: w.steps });
  }
  const retries = createRetryDetector();
  for (const s of states) if (retries.add(s) !== undefined) out.push({ detector: 'coherence_retry', steps: [s.t] });
  for (const s of report.signals) {
    const detector = SIGNALS[s.kind];
    if (detector !== undefined) out.push({ detector, steps: s.steps, t: s.t, severity: s.severity });
  }
  return out;
}
