/**
 * Review: the models table's pass rates, Lucky rates and mean quality, and the multi-trial table's p_attempt,
 * drew their intervals as if every run were independent (Wilson over runs, a bootstrap of runs), while runs of
 * one task are not (docs/method.md section 16 resamples tasks for the AUROC for that reason). On
 * ../shared/calibration SWE-agent 0.x + gpt-4's 721 runs of 241 tasks printed a pass rate of 10.4 % [8.4, 12.8]
 * (tasks as the unit: [7.5, 14.3]) and mean quality 59.9 [58.4, 61.3], ranked "2=" below CodeR's 63.7 [61.7, 65.4]
 * (with tasks resampled, [57.5, 62.2]: the two cannot be told apart); the corpus's one repeated configuration printed
 * p_attempt 0.667 [0.3, 0.903] from 6 attempts of 2 tasks, and "pareto_front 1" of one configuration.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { meanInterval } from '../../src/core/stats/bootstrap.js';
import { clusteredMeanInterval, clusteredRateInterval, clustersBy } from '../../src/core/stats/clustered.js';
import { wilsonInterval } from '../../src/core/stats/interval.js';
import { modelRows } from '../../src/report/models.js';
import type { CorpusReport } from '../../src/report/types.js';
import { cli, CORPUS } from '../cli/run-cli.js';
import { corpusReport } from './corpus-fixture.js';

const SOURCE = 'mini-swe-agent 2.2.7 + deepseek/deepseek-chat';

describe('intervals with the task as the unit', () => {
  it('are Wilson over runs when no task repeats, Wilson over tasks when every task’s runs agree, none from < 5 tasks', () => {
    const singles = Array.from({ length: 12 }, (_, i) => ({ k: i < 9 ? 1 : 0, n: 1 }));
    expect(clusteredRateInterval(singles)).toEqual(wilsonInterval(9, 12));
    // 6 tasks × 3 runs, each task all pass or all fail: 18 runs carry what 6 tasks do.
    const alike = Array.from({ length: 6 }, (_, i) => ({ k: i < 4 ? 3 : 0, n: 3 }));
    expect(clusteredRateInterval(alike)).toEqual(wilsonInterval(4, 6));
    expect(clusteredRateInterval(alike)!.hi - clusteredRateInterval(alike)!.lo).toBeGreaterThan(wilsonInterval(12, 18).hi - wilsonInterval(12, 18).lo);
    // Runs of one task that disagree as much as independent runs would: never narrower than Wilson over runs.
    const mixed = Array.from({ length: 6 }, () => ({ k: 1, n: 2 }));
    expect(clusteredRateInterval(mixed)).toEqual(wilsonInterval(6, 12));
    expect(
      clusteredRateInterval([
        { k: 2, n: 3 },
        { k: 2, n: 3 },
      ]),
    ).toBeNull();
    expect(clusteredRateInterval([])).toBeNull();
    expect(
      clusteredMeanInterval([
        [60, 61, 62],
        [70, 71],
      ]),
    ).toBeNull();
  });

  it("resample the corpus's repeated tasks for mean quality (real runs)", () => {
    const rows = corpusReport().trajectories.filter((r) => r.source === SOURCE);
    const scored = rows.filter((r) => r.score);
    const clusters = clustersBy(scored, (r) => r.task);
    expect(clusters.some((c) => c.length > 1)).toBe(true);
    const m = modelRows(rows).find((x) => x.source === SOURCE)!;
    const byTask = clusteredMeanInterval(clusters.map((c) => c.map((r) => r.score!.total)));
    expect(m.meanQualityInterval).toEqual(byTask);
    expect(m.meanQualityInterval).not.toEqual(meanInterval(scored.map((r) => r.score!.total)));
  }, 120_000);

  it('print no p_attempt interval from 2 tasks and no Pareto front of one configuration, in every format', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'steplens-clusters-'));
    const r = await cli('report', '--out', out, CORPUS);
    const doc = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as CorpusReport;
    expect(doc.reliability.configurations).toHaveLength(1);
    expect(doc.reliability.configurations[0]).toMatchObject({ tasks: 2, completed: 6, front: null, pAttemptInterval: null });
    const row = r.stdout
      .slice(r.stdout.indexOf('Multi-trial reliability'))
      .split('\n')
      .find((l) => l.startsWith('mini-swe-agent 2.2.7 + deepseek/deepseek-chat'))!;
    expect(row).toMatch(/ 0\.667 \[-\] .* -$/);
    const note = 'No Pareto front in the multi-trial table: only mini-swe-agent 2.2.7 + deepseek/deepseek-chat ran a task more than once';
    expect(r.stdout).toContain(note);
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/\| mini-swe-agent 2\.2\.7 \+ deepseek\/deepseek-chat \| 2 \| 3 \| 6 \| 6 \| 4 \| 0\.667 \| - \| - \|.* \| - \|\n/);
    expect(md).toContain(note);
    expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toContain(note);
    expect(readFileSync(path.join(out, 'reliability.csv'), 'utf8')).not.toContain('0.903');
  }, 120_000);
});
