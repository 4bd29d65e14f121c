/**
 * bench/forecast-norm/normalise.ts's group normalisation (the transductive variant of bench/forecast-ecdf.ts): each
 * run's end row ranked among its own group's end rows only (same source and task), from the raw features.
 */
import { describe, expect, it } from 'vitest';
import { groupEndRows, normalised, pooledNormalised, VARIANTS } from '../../bench/forecast-norm/normalise.js';
import { FEATURE_COUNT, FEATURE_NAMES } from '../../src/core/forecast/features.js';
import type { ForecastRun } from '../../src/core/forecast/run.js';

const STEPS = FEATURE_NAMES.indexOf('logSteps');

/** A run of `n` steps with one row per prefix whose logSteps is ln(1 + t) and every other feature 0. */
function run(id: string, task: string, n: number, model = 'm'): ForecastRun {
  const rows = new Float64Array(n * FEATURE_COUNT);
  for (let t = 1; t <= n; t++) rows[(t - 1) * FEATURE_COUNT + STEPS] = Math.log1p(t);
  return { id, task, agent: 'a', model, passed: false, length: n, at: Int32Array.from({ length: n }, (_, i) => i + 1), rows };
}

describe('group-normalised end rows', () => {
  const runs = [run('x', 't1', 4), run('y', 't1', 9), run('z', 't1', 9), run('w', 't2', 30), run('v', 't1', 50, 'other')];
  const rows = groupEndRows(runs, VARIANTS['B-ecdf']!);

  it('ranks a run among the end rows of its source and task alone (mid-ranks), not among the source', () => {
    expect(rows.map((r) => r[STEPS])).toEqual([1 / 6, 2 / 3, 2 / 3, 0.5, 0.5]);
    // By source instead, w's 30 steps rank above x, y and z.
    const bySource = normalised(runs, VARIANTS['B-ecdf']!);
    expect(bySource[3]!.rows[29 * FEATURE_COUNT + STEPS]).toBe(7 / 8);
  });

  it('leaves features it does not normalise and the shipped variant as the raw end row', () => {
    expect(groupEndRows(runs, VARIANTS.shipped!)[1]![STEPS]).toBe(Math.log1p(9));
    const c = groupEndRows(runs, VARIANTS['C-length']!);
    expect(c[0]![FEATURE_NAMES.indexOf('shareE')]).toBe(0);
    expect(c[0]![STEPS]).toBeLessThan(0);
  });

  it('pooled: one population for every run (the other sources), none of the scored source', () => {
    const pooled = pooledNormalised(
      runs,
      VARIANTS['B-ecdf']!,
      runs.filter((r) => r.model === 'm'),
    );
    // v (50 steps, model 'other') ranks above all 4 runs of the population at its end; x (4 steps) below 3 of them.
    expect(pooled[4]!.rows[49 * FEATURE_COUNT + STEPS]).toBe(1);
    expect(pooled[0]!.rows[3 * FEATURE_COUNT + STEPS]).toBe(1 / 8);
  });

  it('groups by the key given (task alone: across sources)', () => {
    const cross = groupEndRows(runs, VARIANTS['B-ecdf']!, (r) => r.task);
    expect(cross[4]![STEPS]).toBe(7 / 8);
  });
});
