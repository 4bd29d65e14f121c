/**
 * audit23 ("numbers that say no more than they know"), the commands of the README and docs run from a clone:
 * - `report`'s best-of-N line pooled the groups of several sources with no source's own figure beside it (the
 *   AUROC and tier lines give theirs): it now names how many sources it pools and gives the one with the most
 *   informative groups alone;
 * - `rank` of one run printed "1 run ordered by ..." and rank 1: a ranking of one (`rank --lenient` refuses to leave
 *   fewer than 2); it now says there is no ranking and prints no rank;
 * - `calibrate --by` said "warn only (1 passing runs < 59 needed)".
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, cli } from './run-cli.js';

const REPEATED = join(CORPUS, 'SWE-agent__mini-swe-agent__pull-refs/output');
const RUNS = 'test/fixtures/early-stop-runs.jsonl.gz';

describe('report: a best-of-N figure pooled over sources', () => {
  it('names the sources it pools and gives the one with the most informative groups alone', async () => {
    // The corpus's one source with repeated tasks ran two of them three times each; a manifest (metadata, the logs
    // untouched) names the three runs of one task as a second source, so each source has one group.
    const dir = mkdtempSync(join(tmpdir(), 'steplens-round3-'));
    const rows = ['deepseek_chat_dev', 'deepseek_chat_dev_rerun', 'deepseek_lite_dev_noparallel'].map((run) =>
      JSON.stringify({ file: relative(dir, join(REPEATED, run, 'pylint-dev__astroid-1866/pylint-dev__astroid-1866.traj.json')), agent: 'mini-swe-agent 2.2.7', model: 'second-source' }),
    );
    writeFileSync(join(dir, 'manifest.jsonl'), `${rows.join('\n')}\n`);
    const two = await cli('report', '--manifest', join(dir, 'manifest.jsonl'), REPEATED);
    expect(two.code).toBe(0);
    const line = two.stdout.split('\n').find((l) => l.startsWith('best-of-N by the composite score'));
    expect(line).toMatch(/over 2 groups .*\(n = 2 groups with a pass and a fail\); pooled over 2 sources, each alone in selection\.csv \(the most informative, .+: 1 group, gap closed .+, n = 1\)$/);
    // One source: its figure is the pooled one, and nothing is added.
    const one = await cli('report', REPEATED);
    const alone = one.stdout.split('\n').find((l) => l.startsWith('best-of-N by the composite score'));
    expect(alone).toMatch(/\(n = 2 groups with a pass and a fail\)$/);
  });
});

describe('rank of one run', () => {
  it('prints its scores and no rank: there is nothing to rank it against', async () => {
    const r = await cli('rank', 'test/fixtures/swe-agent-0__django__django-16046.traj.gz');
    expect(r.code).toBe(0);
    const [head, , , , row] = r.stdout.split('\n');
    expect(head).toBe('swe-agent-0__django__django-16046: 1 run, so no ranking (a ranking needs 2 runs); scored by the composite, reference-free (no forecast model, no usable PTA of the task)');
    expect(row).toMatch(/^- +swe-agent-0__django__django-16046\.traj\.gz /);
    // audit24: --json says so as POST /v1/rank does (oneRun), the rank kept 1; two runs carry no oneRun.
    const json = JSON.parse((await cli('rank', 'test/fixtures/swe-agent-0__django__django-16046.traj.gz', '--json')).stdout) as { oneRun?: true; runs: Array<{ rank: number }> };
    expect(json.oneRun).toBe(true);
    expect(json.runs.map((x) => x.rank)).toEqual([1]);
    // Two runs are still ranked 1 and 2.
    const two = await cli('rank', 'test/fixtures/swe-agent-0__django__django-16046.traj.gz', 'test/fixtures/swe-agent-0__django__django-13401.traj.gz', '--mixed-tasks');
    expect(two.stdout).toMatch(/^runs of several tasks: 2 runs ordered by /);
    expect(two.stdout).toMatch(/^1 +\S/m);
    expect(two.stdout).toMatch(/^2 +\S/m);
    const twoJson = JSON.parse(
      (await cli('rank', 'test/fixtures/swe-agent-0__django__django-16046.traj.gz', 'test/fixtures/swe-agent-0__django__django-13401.traj.gz', '--mixed-tasks', '--json')).stdout,
    ) as { oneRun?: true };
    expect(twoJson.oneRun).toBeUndefined();
  });
});

describe('calibrate --by source', () => {
  it('counts one passing run in the singular', async () => {
    const r = await cli('calibrate', '--runs', RUNS, '--by', 'source', '--split', 'none');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/warn only \(1 passing run < 59 needed\)/);
    expect(r.stdout).toMatch(/warn only \(2 passing runs < 59 needed\)/);
    expect(r.stdout).not.toMatch(/\b1 passing runs\b/);
  });
});
