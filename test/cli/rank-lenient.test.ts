/**
 * Review: `steplens rank --lenient` still stopped at the first file it could not read, where `report --lenient`
 * skips it, names it and goes on. Now rank --lenient does the same: each unreadable file is skipped and named on
 * stderr, the rest are ranked (exit 0); fewer than 2 runs left is still refused. Without --lenient, the first
 * unreadable file stops the command as before. The runs are three real runs of one task from the packed corpus;
 * the unreadable files are a missing path, a file that is not JSON and a JSON document in no log format.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, CORPUS } from './run-cli.js';

const TASK = path.join(CORPUS, 'christsakm__Trajectories/GOOD_EXAMPLES/bokeh__bokeh-13370');
const RUNS = ['trace_01_gpt-5-2025-08-07', 'trace_02_kimi-k2-instruct-0905', 'trace_04_claude-sonnet-4-20250514'].map((d) => path.join(TASK, d, 'bokeh__bokeh-13370.traj'));
const dir = mkdtempSync(path.join(tmpdir(), 'steplens-rank-lenient-'));
const MISSING = path.join(dir, 'missing.traj');
const NOT_JSON = path.join(dir, 'truncated.traj');
const NOT_A_LOG = path.join(dir, 'metrics.json');
writeFileSync(NOT_JSON, '{"trajectory": [');
writeFileSync(NOT_A_LOG, '{"instruction": "x", "success": true}');

describe('rank --lenient', () => {
  it('skips each unreadable file, names it on stderr and ranks the rest', async () => {
    const r = await cli('rank', '--lenient', '--json', RUNS[0]!, MISSING, RUNS[1]!, NOT_JSON, RUNS[2]!, NOT_A_LOG);
    expect(r.code).toBe(0);
    const skipped = r.stderr.split('\n').filter((l) => l.startsWith('skipped '));
    expect(skipped.map((l) => l.slice('skipped '.length, l.indexOf(': ')))).toEqual([MISSING, NOT_JSON, NOT_A_LOG]);
    const doc = JSON.parse(r.stdout) as { task: string; runs: Array<{ id: string }> };
    expect(doc.task).toBe('bokeh__bokeh-13370');
    expect(doc.runs.map((x) => x.id).sort()).toEqual([...RUNS].sort());
  });

  it('still refuses when fewer than 2 runs are left', async () => {
    const r = await cli('rank', '--lenient', RUNS[0]!, NOT_JSON, MISSING);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`skipped ${NOT_JSON}: `);
    expect(r.stderr).toContain(`skipped ${MISSING}: `);
    expect(r.stderr).toMatch(/steplens rank: 1 run left to rank after skipping 2 unreadable files: ranking needs 2\n$/);
  });

  it('without --lenient, stops at the first unreadable file as before', async () => {
    const r = await cli('rank', RUNS[0]!, NOT_JSON, RUNS[1]!);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^steplens rank: ${NOT_JSON.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: invalid JSON`));
  });
});
