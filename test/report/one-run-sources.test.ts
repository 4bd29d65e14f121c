/**
 * `report --min-runs 1` once ranked two sources of one run each 1 and 2 on quality: the bootstrap "interval" of
 * one run was the run's own score, zero-width, so the two never overlapped. `--min-runs` is now at least 2, a
 * one-run mean prints `[-]` for its interval, and a source without an interval is not ranked.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run-cli.js';

const RUNS = path.resolve('examples/runs');
const OUTCOMES = path.join(RUNS, 'outcomes.csv');
// Two sources, one run each (a pass and a fail), as in the review's repro.
const TWO = [path.join(RUNS, 'swe-agent-0/doubao-pro-128k/fasterxml__jackson-databind-4486.traj'), path.join(RUNS, 'swe-agent-0/gpt-4o-2024-05-13/fasterxml__jackson-databind-4486.traj')];

describe('report on sources of one run', () => {
  it('refuses --min-runs 1 with one usage line', async () => {
    const r = await cli('report', '--min-runs', '1', '--outcomes', OUTCOMES, ...TWO);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe("steplens report: --min-runs must be an integer >= 2 (one run has no interval to tell sources apart), got '1'\n");
  });

  it('prints no interval for a one-run mean and ranks neither source', async () => {
    const r = await cli('report', '--min-runs', '2', '--outcomes', OUTCOMES, ...TWO);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const head = lines.findIndex((l) => l.startsWith('agent ') && l.includes('quality [95% CI]'));
    const rows = lines.slice(head + 1, head + 3);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      // evaluated 1, pass rate with its Wilson interval, rank -, scored 1, quality "x.x [-]", rank -, shift -.
      expect(row).toMatch(/ 1 +\d+\.\d % \[\d+\.\d, \d+\.\d\] +- +1 +\d+\.\d \[-\] +- +- /);
    }
  });
});
