/**
 * `report`'s wasted_steps / wasted_tokens count each wasted step once. Waste items may overlap (method.md section
 * 10): on this real CodeR run the cyclic pattern's 18 wasted steps all sit inside the blind-retry episode, and adding
 * the items up counted 41 of its 42 steps (and 39242 tokens) as wasted.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wastedStepSet } from '../../src/core/waste/index.js';
import { corpusReport } from './corpus-fixture.js';

const RUN = join(import.meta.dirname, '..', 'fixtures', 'coder__django__django-11797.traj.gz');

describe('report: distinct wasted steps and tokens', () => {
  const report = corpusReport([RUN]);
  const row = report.trajectories[0]!;

  it('counts the union of the items, not their sum', () => {
    expect(report.trajectories).toHaveLength(1);
    expect(row.steps).toBe(42);
    expect(row.waste.map((w) => [w.category, w.wastedSteps, w.wastedTokens])).toEqual([
      ['blind_retry', 1, 1332],
      ['blind_retry', 22, 21008],
      ['cyclic_pattern', 18, 16902],
    ]);
    const [, retry, cycle] = row.waste;
    const retried = new Set(retry!.steps.slice(-retry!.wastedSteps));
    expect(cycle!.steps.slice(-cycle!.wastedSteps).every((t) => retried.has(t))).toBe(true);
    expect(row.wastedSteps).toBe(wastedStepSet(row.waste).size);
    expect(row.wastedSteps).toBe(23);
    // The cycle's wasted steps are all retries: the run wasted the retries' steps and tokens (1 + 22, 1332 + 21008).
    expect(row.wastedTokens).toBe(22340);
  });

  it('sums the distinct figures per source in the models table', () => {
    expect(report.models).toHaveLength(1);
    expect([report.models[0]!.wastedSteps, report.models[0]!.wastedTokens]).toEqual([23, 22340]);
  });
});
