/**
 * audit20: a PATH that does not exist, among good ones. `rank --lenient` skipped it (named on stderr) and ranked the
 * rest; `report --lenient` (and so `calibrate` and `train`, which read their PATHs the same way) refused the whole
 * command for it. Now the same rule everywhere: without --lenient one line naming the path, exit 1, nothing scored;
 * with --lenient it is skipped and named like a file that cannot be read (`skipped PATH: reason`, in report.json's
 * skipped files too) and the rest is scored, exit 0; every PATH missing is still refused. Real runs of one task.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CorpusReport } from '../../src/report/types.js';
import { cli, CORPUS } from './run-cli.js';

const TASK = path.join(CORPUS, 'christsakm__Trajectories/GOOD_EXAMPLES/bokeh__bokeh-13370');
const RUNS = ['trace_01_gpt-5-2025-08-07', 'trace_02_kimi-k2-instruct-0905'].map((d) => path.join(TASK, d, 'bokeh__bokeh-13370.traj'));
const MISSING = path.join(mkdtempSync(path.join(tmpdir(), 'steplens-lenient-missing-')), 'missing.traj');

describe('a missing PATH among good ones', () => {
  it('report --lenient skips it, names it and reports the rest', async () => {
    const r = await cli('report', '--lenient', '--json', RUNS[0]!, MISSING, RUNS[1]!);
    expect(r.stderr).toContain(`skipped ${MISSING}: no such file or directory\n`);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as CorpusReport;
    expect(doc.inputs.trajectories).toBe(2);
    expect(doc.inputs.skipped).toContainEqual({ path: MISSING, reason: 'no such file or directory', kind: 'unreadable' });
  });

  it('rank --lenient names it the same way, the path once', async () => {
    const r = await cli('rank', '--lenient', '--json', RUNS[0]!, MISSING, RUNS[1]!);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`skipped ${MISSING}: no such file\n`);
  });

  it('without --lenient both refuse it in one line; with every PATH missing report refuses even with --lenient', async () => {
    const report = await cli('report', RUNS[0]!, MISSING);
    expect([report.code, report.stdout, report.stderr]).toEqual([1, '', `steplens report: ${MISSING}: no such file or directory\n`]);
    const rank = await cli('rank', RUNS[0]!, MISSING, RUNS[1]!);
    expect([rank.code, rank.stdout]).toEqual([1, '']);
    expect(rank.stderr).toMatch(/^steplens rank: .*missing\.traj.*no such file\n$/);
    const none = await cli('report', '--lenient', MISSING);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/no trajectory found/);
  });
});
