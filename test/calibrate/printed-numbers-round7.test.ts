/**
 * audit27 (round 6 left them): `calibrate`'s trade-off tables printed "all tokens saved" and "median stop step" as bare
 * figures, without an interval or n; the single-kind tables pooled every source's passing runs, with nothing beside
 * them of any one source (a row within the bound pooled could stop 3 of CodeR's 64 passing runs, upper 11.7 %).
 */
import { describe, expect, it } from 'vitest';
import { thresholdRow } from '../../src/core/calibrate/tables.js';
import type { CalibrationRun } from '../../src/core/calibrate/types.js';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { medianInterval } from '../../src/core/stats/interval.js';
import { cliShared } from '../cli/run-cli.js';

const RUNS = 'test/fixtures/early-stop-runs.jsonl.gz';

describe('calibrate prints the all-runs token share and the median stop step with intervals, and the worst source beside the pooled rows', () => {
  it('in text: the trade-off rows give both figures an interval and n; the single-kind rows the worst source with its n', async () => {
    const { code, stdout } = await cliShared('calibrate', '--runs', RUNS, '--split', 'none');
    expect(code).toBe(0);
    expect(stdout).toContain("failing tokens saved / all runs' [95%]  median stop step [95%]");
    const front = stdout.slice(stdout.indexOf('trade-off, reference-free'), stdout.indexOf('trade-off, with references'));
    // explorationStreak 25 stops 20 runs (2 passing, 18 failing): a median of 20 has an interval; of 4 (streak 35) none.
    expect(front).toMatch(/ \d+\.\d% \[\d+\.\d%, \d+\.\d%\] \(n 1002\) +30\.5 \[29, 33\] \(n 20\) +yes +explorationStreak 25\n/);
    expect(front).toMatch(/ \(n 1002\) +40 \[-\] \(n 4\) +yes +explorationStreak 35\n/);
    expect(stdout).toContain('pooled over 15 sources, 15 with passing runs');
    const table = stdout.slice(stdout.indexOf('blindRetry: '), stdout.indexOf('regressionLoop: '));
    expect(table).toContain("worst of 15 sources' passing stopped (95% upper)");
    // Threshold 6 stops 3 of 192 passing runs pooled (upper 4.0 %, within the 5 % bound): all 3 are CodeR's 64.
    expect(table).toMatch(/\n +6 +3\/192 \(1\.6%, ≤4\.0%\) .* +3\/64 \(4\.7%, ≤11\.7%\) +stop\n/);
  });

  it('in --json: the new fields beside the old ones', async () => {
    const { code, stdout } = await cliShared('calibrate', '--runs', RUNS, '--split', 'none', '--json');
    expect(code).toBe(0);
    const doc = JSON.parse(stdout) as {
      kinds: { blindRetry: { rows: Array<{ threshold: number; passingStopped: number; bySource?: { sources: number; withPassing: number; worst: unknown } }> } };
      tradeoff: { front: { referenceFree: Array<{ modes: { referenceFree: Record<string, unknown> } }> } };
    };
    const row = doc.kinds.blindRetry.rows.find((r) => r.threshold === 6)!;
    expect(row.passingStopped).toBe(3);
    expect(row.bySource).toEqual({ sources: 15, withPassing: 15, worst: { source: 'CodeR + gpt-4', passingStopped: 3, passing: 64, passingRate: 3 / 64, passingUpper: expect.closeTo(0.1167, 4) } });
    const point = doc.tradeoff.front.referenceFree.map((p) => p.modes.referenceFree).find((p) => p.passingStopped === 2 && p.failingStopped === 18)!;
    expect(point).toMatchObject({ allTokenShare: expect.any(Number), medianStopStep: 30.5, medianStopStepInterval: { lo: 29, hi: 33, level: 0.95 } });
    const iv = point.allTokenShareInterval as { lo: number; hi: number };
    expect(iv.lo).toBeLessThan(point.allTokenShare as number);
    expect(iv.hi).toBeGreaterThan(point.allTokenShare as number);
  });

  it("a median's interval is the order statistics Binomial(n, 1/2) gives, none under 6 values", () => {
    expect(medianInterval([1, 2, 3, 4, 5])).toBeNull();
    expect(medianInterval([6, 1, 5, 2, 4, 3])).toEqual({ lo: 1, hi: 6, level: 0.95 });
    // n = 20: P(B <= 5) = 0.021 <= 0.025 < P(B <= 6) = 0.058, so the 6th and 15th values.
    expect(medianInterval(Array.from({ length: 20 }, (_, i) => 20 - i))).toEqual({ lo: 6, hi: 15, level: 0.95 });
    expect(medianInterval([])).toBeNull();
  });

  it('the worst source is the highest rate, a tie going to the source with more passing runs; runs without a source give no bySource', () => {
    const state = { cost: 1 } as unknown as CalibrationRun['states'][number];
    // A low-score floor of 100 after 1 step stops every run of 2 states or more.
    const run = (source: string | undefined, passed: boolean, steps: number): CalibrationRun => ({
      states: Array.from({ length: steps }, () => state),
      totals: Array.from({ length: steps }, () => 0),
      passed,
      ...(source !== undefined ? { source } : {}),
    });
    const base = { ...DEFAULT_POLICY, lowScore: { ...DEFAULT_POLICY.lowScore, minSteps: 1 } };
    const runs = [run('a', true, 3), run('b', true, 3), run('b', true, 3), run('c', true, 1), run('c', false, 3), run('d', false, 3)];
    const r = thresholdRow(runs, 'lowScore', 100, base);
    expect(r.bySource?.sources).toBe(4);
    expect(r.bySource?.withPassing).toBe(3);
    expect(r.bySource?.worst).toMatchObject({ source: 'b', passingStopped: 2, passing: 2, passingRate: 1 });
    expect(thresholdRow(runs.map((x) => ({ ...x, source: undefined })) as CalibrationRun[], 'lowScore', 100, base).bySource).toBeUndefined();
  });
});
