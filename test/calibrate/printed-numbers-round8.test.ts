/**
 * audit28 (round 7 left them): a median stop step whose order-statistic interval falls on one value printed
 * `17 [17, 17] (n 159)`, read as certainty where most stopped runs tie at that step (a low-score floor fires at its
 * first step); now the row says how many tie there. `--out-dir`'s tradeoff.csv carried the figures the tables print
 * with intervals and n as bare points; now every one has its `_lo`/`_hi` and n. The written policy read as a
 * predictor printed its source-only AUROC bare beside the pooled AUROC's interval.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, cliShared } from '../cli/run-cli.js';

const RUNS = 'test/fixtures/early-stop-runs.jsonl.gz';

interface Point {
  passingStopped: number;
  failingStopped: number;
  failingInterval: { lo: number; hi: number } | null;
  failingStepsShareInterval: { lo: number; hi: number } | null;
  allTokenShareInterval: { lo: number; hi: number } | null;
  medianStopStep: number | null;
  medianStopStepInterval: { lo: number; hi: number } | null;
  medianStopStepTied: number | null;
}

let text: string;
let csv: Array<Record<string, string>>;
let front: Point[];
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'a28-cal-'));
  const [t, j] = await Promise.all([cli('calibrate', '--runs', RUNS, '--split', 'none', '--out-dir', dir), cliShared('calibrate', '--runs', RUNS, '--split', 'none', '--json')]);
  expect([t.code, j.code]).toEqual([0, 0]);
  text = t.stdout;
  front = (JSON.parse(j.stdout) as { tradeoff: { front: { referenceFree: Array<{ modes: { referenceFree: Point } }> } } }).tradeoff.front.referenceFree.map((p) => p.modes.referenceFree);
  const [head, ...rows] = readFileSync(join(dir, 'tradeoff.csv'), 'utf8').trim().split('\n');
  const names = head!.split(',');
  // The policy cell may hold commas (quoted); the figures before it do not.
  csv = rows.map((r) => Object.fromEntries(r.split(',').map((c, i) => [names[i] ?? '', c])));
}, 180_000);

describe("calibrate's tied medians, its CSV's intervals and the predictor's source-only AUROC", () => {
  it('a median interval of one value says how many stopped runs tie there', () => {
    // explorationStreak 25 + lowScore <25 after 30 stops 44 runs, 41 of them at step 29 (the floor's first step).
    expect(text).toMatch(/ 29 \[29, 29\] \(n 44; 41 tie at 29\) +no +explorationStreak 25, lowScore <25 after 30\n/);
    expect(text).not.toMatch(/\[(\d+), \1\] \(n \d+\)/);
    expect(text).toContain('the row says how many, (n N; K tie at S)');
    const tied = front.find((p) => p.medianStopStepInterval?.lo === 29 && p.medianStopStepInterval.hi === 29 && p.passingStopped + p.failingStopped === 44)!;
    expect(tied.medianStopStepTied).toBe(41);
    // An interval with two ends says nothing of ties.
    expect(front.find((p) => p.medianStopStep === 30.5)!.medianStopStepTied).toBeNull();
  });

  it('tradeoff.csv gives each figure the interval and n the tables print beside it', () => {
    expect(Object.keys(csv[0]!)).toEqual(
      expect.arrayContaining([
        'failing_rate_lo',
        'failing_rate_hi',
        'failing_steps_share_lo',
        'failing_token_share_hi',
        'runs',
        'all_token_share_lo',
        'stopped',
        'median_stop_step_lo',
        'median_stop_step_hi',
        'median_stop_step_tied',
      ]),
    );
    const row = csv.find((r) => r.mode === 'referenceFree' && r.median_stop_step === '30.5')!;
    const p = front.find((q) => q.medianStopStep === 30.5)!;
    expect(Number(row.failing_rate_lo)).toBe(p.failingInterval!.lo);
    expect(Number(row.failing_steps_share_hi)).toBe(p.failingStepsShareInterval!.hi);
    expect(Number(row.all_token_share_lo)).toBe(p.allTokenShareInterval!.lo);
    expect([row.runs, row.stopped, row.median_stop_step_lo, row.median_stop_step_hi, row.median_stop_step_tied]).toEqual(['1002', '20', '29', '33', '']);
    const tied = csv.find((r) => r.mode === 'referenceFree' && r.median_stop_step_lo === '29' && r.median_stop_step_hi === '29' && r.stopped === '44')!;
    expect(tied.median_stop_step_tied).toBe('41');
  });

  it('the written policy as a predictor: the source-only AUROC with its interval', () => {
    expect(text).toMatch(/reference-free: AUROC of "not stopped" .*, source alone \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]\n/);
  });
});
