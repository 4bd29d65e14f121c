/**
 * audit21: a score that gives every run the same value orders nothing: its AUROC is 0.5 by construction and every
 * resample gives 0.5 again. `calibrate` said so in its text (a written policy that stops no run: "no interval:
 * nothing is measured") while its --json and calibration.json carried `{ lo: 0.5, hi: 0.5 }`, and `train`'s "each
 * signal alone" table printed `0.500 [0.50, 0.50]` for a signal constant over a source (mini-swe-agent's edit). Now no
 * interval anywhere such a figure is drawn: within source, its mean, within task and pooled.
 */
import { describe, expect, it } from 'vitest';
import { aurocInterval } from '../../src/core/stats/bootstrap.js';
import { separation } from '../../src/core/stats/separation.js';
import { cli } from '../cli/run-cli.js';

const RUNS = 'test/fixtures/early-stop-runs.jsonl.gz';

describe('one score for every run: no interval', () => {
  it('calibrate --json: the written policy that stops no run has no AUROC interval, as its text says', async () => {
    // 192 passing runs: no stop's upper bound is within 0.1 %, so the written policy only warns and stops no run.
    const run = await cli('calibrate', '--runs', RUNS, '--split', 'none', '--max-false-stop', '0.001', '--json');
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as {
      tradeoff: { chosen: { modes: Record<'reference' | 'referenceFree', { passingStopped: number; failingStopped: number }> }; separation: Record<string, ReturnType<typeof separation>> };
    };
    for (const mode of ['reference', 'referenceFree'] as const) {
      expect(doc.tradeoff.chosen.modes[mode]).toMatchObject({ passingStopped: 0, failingStopped: 0 });
      const sep = doc.tradeoff.separation[mode]!;
      expect(sep.withinSource.mean).toBe(0.5);
      expect(sep.withinSource.interval).toBeNull();
      for (const s of sep.withinSource.sources) expect(s.interval).toBeNull();
      expect(sep.withinTask.interval).toBeNull();
      expect(sep.pooled.auroc).toBe(0.5);
      expect(sep.pooled.interval).toBeNull();
    }
  }, 60_000);

  it('a source scoring all its runs alike has no interval; a source whose score varies keeps its own', () => {
    const runs = Array.from({ length: 40 }, (_, i) => ({ source: i < 20 ? 'flat' : 'varied', task: `t${i % 10}`, pass: i % 2 === 0, score: i < 20 ? 1 : (i * 7) % 11 }));
    for (const unit of ['run', 'task'] as const) {
      const sep = separation(runs, { unit });
      const flat = sep.withinSource.sources.find((s) => s.source === 'flat')!;
      expect(flat).toMatchObject({ auroc: 0.5, interval: null, counted: true });
      expect(sep.withinSource.sources.find((s) => s.source === 'varied')!.interval).not.toBeNull();
      // The mean still varies with the varied source, so it keeps its interval.
      expect(sep.withinSource.interval).not.toBeNull();
    }
    expect(aurocInterval([1, 1, 1], [1, 1, 1])).toBeNull();
    expect(aurocInterval([1, 2, 3], [1, 2, 3])).not.toBeNull();
  });

  it('every pair of 5 tasks ordered right: within task and within source are 1 in every draw, no interval (was [1, 1])', () => {
    const runs = Array.from({ length: 5 }, (_, i) => [
      { source: 's', task: `t${i}`, pass: true, score: 0.9 - i / 100 },
      { source: 's', task: `t${i}`, pass: false, score: 0.2 + i / 100 },
    ]).flat();
    const sep = separation(runs, { unit: 'task' });
    expect(sep.withinTask).toMatchObject({ auroc: 1, interval: null });
    expect(sep.withinSource.sources[0]).toMatchObject({ auroc: 1, interval: null });
    expect(sep.pooled).toMatchObject({ auroc: 1, interval: null });
  });
});
