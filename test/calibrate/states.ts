/** Hand-made states for calibration unit tests: only the fields the detectors read matter. */
import type { ActionKind, Stage, State } from '../../src/core/types.js';
import type { CalibrationRun, TradeoffRun } from '../../src/core/calibrate/index.js';

export interface StateSpec {
  stage: Stage;
  hash: string;
  kind?: ActionKind;
  file?: string;
  changesFile?: boolean;
  failed?: boolean;
  /** Token cost (default 10). */
  cost?: number;
}

/** States numbered 0.. from specs. */
export function states(specs: readonly StateSpec[]): State[] {
  return specs.map((s, t) => ({
    t,
    stage: s.stage,
    kind: s.kind ?? (s.stage === 'E' ? 'read' : s.stage === 'I' ? 'edit' : s.stage === 'V' ? 'run_test' : 'think'),
    tool: 'bash',
    ...(s.file !== undefined ? { file: s.file } : {}),
    hash: s.hash,
    tokens: [],
    command: true,
    changesFile: s.changesFile ?? false,
    failed: s.failed ?? false,
    cost: s.cost ?? 10,
    unknown: false,
  }));
}

/** A run from specs with a constant running score. */
export function run(passed: boolean, specs: readonly StateSpec[], total = 100): CalibrationRun {
  const st = states(specs);
  return { states: st, totals: st.map(() => total), passed };
}

/** `n` E states with distinct hashes (prefix `p`). */
export const distinct = (n: number, p = 'x', stage: Stage = 'E'): StateSpec[] => Array.from({ length: n }, (_, i) => ({ stage, hash: `${p}${i}` }));

/** `n` runs with no pattern at all (4 distinct reads). */
export const clean = (n: number, passed = true): CalibrationRun[] => Array.from({ length: n }, (_, i) => run(passed, distinct(4, `c${i}-`)));

/** A trade-off run: reference-free totals, and reference totals (default: the same, no reference). */
export function trun(id: string, task: string, passed: boolean, specs: readonly StateSpec[], free?: number[], ref?: number[]): TradeoffRun {
  const st = states(specs);
  const f = free ?? st.map(() => 100);
  return { id, task, passed, states: st, totals: { referenceFree: f, reference: ref ?? f }, hasReference: ref !== undefined };
}
