/**
 * The grid's per-kind stops (one count profile per run, every threshold at once) are where the real
 * early-stop engine stops with that kind alone, on 1000 real scored runs; and the registry writes and
 * reads policies consistently.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GRID_KINDS, firstAnyStop, noStops, policyFor, settingsOf, type StopSettings } from '../../src/core/calibrate/index.js';
import { DEFAULT_POLICY, resolvePolicy } from '../../src/core/policy.js';
import { readScoredRuns } from '../../src/cli/scored-runs.js';

const RUNS = readScoredRuns(fileURLToPath(new URL('../fixtures/early-stop-runs.jsonl.gz', import.meta.url))).map((r) => r.run);

describe('grid kinds', () => {
  it.each(GRID_KINDS.map((k) => [k.key, k] as const))("%s: the profile stops equal the engine's, for every default candidate", (_key, kind) => {
    const values = kind.candidates;
    let stops = 0;
    for (const r of RUNS.slice(0, 400)) {
      for (const mode of ['referenceFree', 'reference'] as const) {
        const got = kind.stops({ states: r.states, totals: r.totals[mode] }, values, DEFAULT_POLICY);
        const want = values.map((v) => firstAnyStop(r.states, r.totals[mode], policyFor({ ...noStops(), [kind.key]: v }, DEFAULT_POLICY)));
        expect(got).toEqual(want);
        stops += got.filter((x) => x !== null).length;
      }
    }
    expect(stops).toBeGreaterThan(0);
  });

  it('policyFor and settingsOf are inverse on the stop settings; every written policy validates', () => {
    expect(settingsOf(DEFAULT_POLICY)).toEqual({ blindRetry: null, regressionLoop: null, cycle: null, explorationStreak: null, noAction: null, lowScore: null });
    const s: StopSettings = { blindRetry: 5, regressionLoop: null, cycle: 3, explorationStreak: 40, noAction: null, lowScore: { floor: 30, minSteps: 10 } };
    const p = policyFor(s, DEFAULT_POLICY);
    expect(settingsOf(p)).toEqual(s);
    expect(resolvePolicy(p).ok).toBe(true);
    // Warns come from the warn source where they lie below the stop.
    expect(p.blindRetry).toEqual({ warn: 2, stop: 5 });
    expect(p.cycle).toEqual({ warn: 2, stop: 3, minBlock: 2, maxBlock: 4 });
    expect(p.noAction).toEqual({ warn: 2, stop: null });
  });
});
