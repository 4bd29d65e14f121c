/**
 * Review: best-of-N (and other) intervals drawn from 2 or 3 groups printed as `1.000 [1.000, 1.000]` or
 * `0.667 [0.667, 0.667]`, which reads like certainty. Below MIN_RESAMPLE_UNITS (5) groups, tasks or runs a
 * bootstrap gives no interval: `[-]` in the text, report.md and report.html, null in report.json and `[-]` in
 * train's best-of-N table. On the packed corpus best-of-N has 2 groups (the two repeated astroid tasks).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bestOfN } from '../../src/core/stats/best-of-n.js';
import { MIN_RESAMPLE_UNITS, meanInterval } from '../../src/core/stats/bootstrap.js';
import { separation, type ScoredOutcome } from '../../src/core/stats/separation.js';
import type { CorpusReport } from '../../src/report/types.js';
import { cli, CORPUS } from '../cli/run-cli.js';

const zeroWidth = /\[(\d\.\d+), \1\]/;

describe('no bootstrap interval below MIN_RESAMPLE_UNITS units', () => {
  it('is 5, and best-of-N, within task and a mean get an interval from 5 units, none from 2 to 4', () => {
    expect(MIN_RESAMPLE_UNITS).toBe(5);
    // k tasks of one source, each a pass and a fail: the pass scored above the fail except in task t1, and an extra
    // fail in every other task, so the top pick, the random pick, the gap and the within-task order vary from group to
    // group (a figure every group shares resamples to itself, a zero-width interval: none since audit21); only n moves.
    const runs = (k: number): ScoredOutcome[] =>
      Array.from({ length: k }, (_, i) => [
        { source: 's', task: `t${i}`, pass: true, score: 0.9 - i / 100 },
        { source: 's', task: `t${i}`, pass: false, score: i === 1 ? 0.95 : 0.2 + i / 100 },
        ...(i % 2 === 0 ? [{ source: 's', task: `t${i}`, pass: false, score: 0.1 }] : []),
      ]).flat();
    for (const k of [2, 3, 4, 5]) {
      const b = bestOfN(runs(k), { reps: 200 });
      const w = separation(runs(k), { reps: 200 }).withinTask;
      const m = meanInterval(
        runs(k)
          .slice(0, k)
          .map((r) => r.score),
        { reps: 200 },
      );
      const has = k >= MIN_RESAMPLE_UNITS;
      expect(
        [b.top.interval, b.random.interval, b.gapInterval].map((x) => x !== null),
        `k = ${k}`,
      ).toEqual([has, has, has]);
      // Every group holds a pass: the oracle is 1 in every resample, so never an interval.
      expect(b.oracle.interval, `k = ${k}`).toBeNull();
      expect(w.interval !== null, `k = ${k}`).toBe(has);
      expect(m !== null, `k = ${k}`).toBe(has);
    }
  });
});

describe('report and train on the packed corpus (best-of-N over 2 groups)', () => {
  it('prints [-] and writes null, never a zero-width interval', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'steplens-tiny-'));
    const r = await cli('report', '--out', out, CORPUS);
    const line = r.stdout.split('\n').find((l) => l.startsWith('best-of-N by the composite score over 2 groups'));
    expect(line).toBeDefined();
    expect(line).toContain('top pick resolves 1.000 [-], random 0.667 [-], oracle 1.000 [-]; gap closed 1.000 [-] (n = 2 groups with a pass and a fail)');
    expect(r.stdout).not.toMatch(zeroWidth);
    const doc = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as CorpusReport;
    const all = doc.selection.find((s) => s.score === 'total' && s.source === 'all')!;
    expect(all.groups).toBe(2);
    expect([all.top.interval, all.random.interval, all.oracle.interval, all.gapInterval]).toEqual([null, null, null, null]);
    for (const file of ['report.md', 'report.html']) {
      const text = readFileSync(path.join(out, file), 'utf8');
      expect(text, file).toContain('top pick resolves 1.000 [-], random 0.667 [-], oracle 1.000 [-]; gap closed 1.000 [-]');
      expect(text, file).not.toContain('[1.000, 1.000]');
    }
  }, 120_000);

  it("train's best-of-N tables print [-] for 2 groups", async () => {
    const r = await cli('train', '--out', path.join(mkdtempSync(path.join(tmpdir(), 'steplens-tiny-')), 'f.json'), CORPUS);
    expect(r.code).toBe(0);
    const tables = r.stdout.split('\nbest-of-N, ').slice(1);
    expect(tables).toHaveLength(2);
    for (const t of tables) {
      const all = t.split('\n').find((l) => l.startsWith('all sources'))!;
      expect(all).toMatch(/^all sources +2 \(6\) +2 +\S+ \(\d\.\d{3} \[-\]\) +\S+ \(0\.667 \[-\]\) +\S+ \(1\.000 \[-\]\) +-?\d+\.\d % \[-\]$/);
    }
  }, 120_000);
});
