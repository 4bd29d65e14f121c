/**
 * The debiased ECE of calibrationCheck (ECE − the noise floor, with the ECE's interval less the floor, widened to
 * hold the point) on real pPass values: the bundled forecaster's pPass on the 951 calibration runs
 * (test/fixtures/bundled-ppass.tsv.gz, README there), with outcomes drawn from those pPass values, so calibrated by
 * construction (true ECE 0). The plain ECE reads well above 0 there (0.16 on gpt-5-mini's 31 runs); the debiased
 * one must read about 0, and its interval must hold 0 in about 95 % of the draws and always hold its own point.
 * Counted over seeds, not timed.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { calibrationCheck, type TaskPrediction } from '../../src/core/stats/calibration-check.js';
import { seededRandom } from '../../src/core/stats/rng.js';

const text = gunzipSync(readFileSync(new URL('../fixtures/bundled-ppass.tsv.gz', import.meta.url))).toString('utf8');
const bySource = new Map<string, TaskPrediction[]>();
for (const line of text.trim().split('\n').slice(1)) {
  const [source, task, p] = line.split('\t') as [string, string, string];
  bySource.set(source, [...(bySource.get(source) ?? []), { task, p: Number(p), pass: false }]);
}

const SEEDS = 60;

describe('calibrationCheck: the debiased ECE on outcomes drawn from real pPass values', () => {
  it('holds the three sources of the fixture', () => {
    expect([...bySource].map(([s, ps]) => [s, ps.length])).toEqual([
      ['CodeR + gpt-4', 199],
      ['mini-swe-agent 2.2.4 + openai/gpt-5-mini', 31],
      ['SWE-agent 0.x + gpt-4', 721],
    ]);
  });

  it.each([...bySource.keys()])('%s: debiased about 0, its interval holds 0 in about 95 % of draws and always its point', (source) => {
    const preds = bySource.get(source)!;
    const random = seededRandom(7);
    let plain = 0;
    let debiased = 0;
    let holdsZero = 0;
    let holdsPoint = 0;
    for (let s = 0; s < SEEDS; s++) {
      const c = calibrationCheck(
        preds.map((x) => ({ ...x, pass: random() < x.p })),
        { seed: s + 1, reps: 400 },
      );
      const d = c.debiased!;
      plain += c.ece!;
      debiased += d.ece;
      if (d.interval!.lo <= 0 && 0 <= d.interval!.hi) holdsZero++;
      if (d.interval!.lo <= d.ece && d.ece <= d.interval!.hi) holdsPoint++;
    }
    // The plain ECE is biased upward (the problem); the debiased mean is within about 3 standard errors of 0.
    expect(plain / SEEDS).toBeGreaterThan(0.015);
    expect(Math.abs(debiased / SEEDS)).toBeLessThan(preds.length < 100 ? 0.02 : 0.006);
    expect(holdsZero / SEEDS).toBeGreaterThanOrEqual(0.85);
    expect(holdsPoint).toBe(SEEDS);
  });
});
