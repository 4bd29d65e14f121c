/**
 * A finished run as the forecaster learns from it: its outcome, task and
 * source (agent + model), and its feature vectors (the whole catalogue) at
 * some prefix lengths, always including its last step. `train` keeps every
 * prefix (the stop rule is checked step by step); the server's learner keeps
 * only the sampled ones ({@link sampleSteps}), which is all a fit reads.
 */
import type { Label, State, Step } from '../types.js';
import { createFeatureTracker, FEATURE_COUNT } from './features.js';

export interface ForecastRun {
  id: string;
  task: string;
  /** Agent and model as logged (or from a manifest). */
  agent: string;
  model: string;
  passed: boolean;
  /** Steps in the run. */
  length: number;
  /** Prefix length of each row, ascending; the last is `length`. */
  at: Int32Array;
  /** FEATURE_COUNT values per row, row-major. */
  rows: Float64Array;
  /** Token cost of each step (runs read by `train`; the stop check reads it). */
  costs?: Float64Array;
}

/** Prefix lengths sampled for training (plus every run's full length). */
export const CHECKPOINTS: readonly number[] = [1, 2, 3, 5, 7, 10, 13, 16, 20, 25, 30, 35, 40, 50, 60, 70, 80, 100, 120, 150, 200, 300, 500, 1000];
const CHECKPOINT_SET = new Set(CHECKPOINTS);

/** True for a prefix length that is sampled whatever the run's length. */
export const isCheckpoint = (t: number): boolean => CHECKPOINT_SET.has(t);

/** The sampled prefix lengths of a run of `n` steps: the checkpoints it passes and `n`. */
export function sampleSteps(n: number): number[] {
  const out = CHECKPOINTS.filter((c) => c < n);
  if (n > 0) out.push(n);
  return out;
}

/** The source of a run: agent + model, the unit every within-source figure is taken over. */
export const sourceOf = (r: Pick<ForecastRun, 'agent' | 'model'>): string => `${r.agent} + ${r.model}`;

export type RunIdentity = Pick<ForecastRun, 'id' | 'task' | 'agent' | 'model' | 'passed'>;

/** A run with a row at every prefix, from its steps and the scorer's states and labels of them (aligned). */
export function forecastRun(identity: RunIdentity, steps: readonly Step[], states: readonly State[], labels: readonly Label[]): ForecastRun {
  const tracker = createFeatureTracker();
  const n = states.length;
  const rows = new Float64Array(n * FEATURE_COUNT);
  for (let i = 0; i < n; i++) {
    tracker.add(steps[i]!, states[i]!, labels[i]!);
    tracker.write(rows.subarray(i * FEATURE_COUNT, (i + 1) * FEATURE_COUNT));
  }
  return { ...identity, length: n, at: Int32Array.from({ length: n }, (_, i) => i + 1), rows, costs: Float64Array.from(states, (s) => s.cost) };
}

/** The row index of prefix length `t` in a run (−1 when the run keeps no row there). */
export function rowAt(run: ForecastRun, t: number): number {
  const at = run.at;
  // Every-prefix runs: row t − 1 directly.
  if (at.length === run.length) return t >= 1 && t <= run.length ? t - 1 : -1;
  let lo = 0;
  let hi = at.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = at[mid]!;
    if (v === t) return mid;
    if (v < t) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
