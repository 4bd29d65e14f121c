import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { policyInputSchema, resolvePolicy } from '../../src/core/policy.js';
import { CALIBRATION_KINDS, type Calibration } from '../../src/core/calibrate/index.js';
import { CORPUS, cli } from '../cli/run-cli.js';

describe('steplens calibrate on the shared corpus', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'steplens-calibrate-')), 'policy.json');
  // 35 passing runs: a 10 % bound (95 % upper bound with none stopped: 8.2 %) lets single kinds stop.
  const running = cli('calibrate', CORPUS, '--json', '--out', out, '--max-false-stop', '0.1', '--split', 'none');

  it('prints the calibration JSON: runs, one table per kind, a partial policy', async () => {
    const run = await running;
    // The corpus holds one JSON file that is no log (a metrics file beside an OpenAgents run): named, not fatal.
    // and one run (mini-swe-agent's example astropy-12907) whose task an sb-cli report of another run names.
    expect(run.stderr).toMatch(/^skipped \S+\/metrics\.json: could not detect the log format [^\n]*\nwarning: 1 of \d+ runs without an outcome have their task in 2 evaluation files [^\n]*\n$/);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as Calibration;
    expect(doc.runs.passing).toBeGreaterThanOrEqual(20);
    expect(doc.runs.failing).toBeGreaterThan(0);
    expect(Object.keys(doc.kinds).sort()).toEqual([...CALIBRATION_KINDS].sort());
    for (const kind of CALIBRATION_KINDS) {
      const t = doc.kinds[kind];
      expect(t.rows.length).toBeGreaterThan(0);
      for (const r of t.rows) {
        expect(r.passingRate).toBeCloseTo(r.passingStopped / doc.runs.passing, 12);
        expect(r.failingRate).toBeCloseTo(r.failingStopped / doc.runs.failing, 12);
      }
      expect(t.stop.bound).toBe(0.1);
      expect(t.warn.bound).toBe(0.25);
    }
    expect(policyInputSchema.safeParse(doc.policy).success).toBe(true);
    expect(resolvePolicy(doc.policy).ok).toBe(true);
    expect((JSON.parse(readFileSync(out, 'utf8')) as { policy: unknown }).policy).toEqual(doc.policy);
  }, 120_000);

  it('every recommended stop has a 95% upper bound of at most 10% of the passing runs and stops a failing run', async () => {
    const doc = JSON.parse((await running).stdout) as Calibration;
    let recommended = 0;
    for (const kind of CALIBRATION_KINDS) {
      const t = doc.kinds[kind];
      if (t.stop.threshold === null) continue;
      recommended += 1;
      const row = t.rows.find((r) => r.threshold === t.stop.threshold)!;
      expect(row.passingUpper!).toBeLessThanOrEqual(0.1);
      expect(row.passingUpper!).toBeGreaterThan(row.passingRate!);
      expect(row.failingStopped).toBeGreaterThan(0);
    }
    expect(recommended).toBeGreaterThan(0);
  }, 120_000);

  it('the naive exact-repeat rule stops more passing runs than the calibrated blind-retry stop (none when no threshold qualifies)', async () => {
    const doc = JSON.parse((await running).stdout) as Calibration;
    const t = doc.kinds.blindRetry;
    const row = t.rows.find((r) => r.threshold === t.stop.threshold);
    expect(doc.baseline.passingStopped).toBeGreaterThan(row?.passingStopped ?? 0);
  }, 120_000);

  it('prints a human table per kind and the policy', async () => {
    const run = await cli('calibrate', CORPUS, '--max-false-stop', '0.1');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/blindRetry: .*\nthreshold\s+passing stopped \(95% upper\)\s+failing stopped/);
    expect(run.stdout).toContain('written policy (');
    expect(run.stdout).toContain('bounds: stop when the clopper-pearson 95% upper bound of the passing runs stopped is at most 10.0%');
  }, 120_000);

  it('rejects a bad rate and a missing path with one line', async () => {
    const bad = await cli('calibrate', CORPUS, '--max-false-stop', 'lots');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^steplens calibrate: --max-false-stop must be a rate between 0 and 1, got 'lots'\n$/);
    const order = await cli('calibrate', CORPUS, '--max-false-stop', '0.3', '--max-false-warn', '0.1');
    expect(order.code).toBe(1);
    expect(order.stderr).toContain('must not be below');
    const none = await cli('calibrate');
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no PATH given');
  }, 120_000);
});
