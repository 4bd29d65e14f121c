/**
 * `calibrate --runs FILE` once printed "0 without one left out" and "temporal prior pooled from 0 bundled reference
 * trajectories" where the run that saved the file said 16 and 11: a saved-runs file carries neither count, so they
 * are printed as not known, and beside PATH... as counts of PATH only.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliShared } from './run-cli.js';

const FIXTURE = path.resolve('test/fixtures/early-stop-runs.jsonl.gz');
const RUNS = path.resolve('examples/runs');
// The two lines after any "left out" notes: runs with a known outcome, then the prior.
const head = (stdout: string) => {
  const lines = stdout.split('\n');
  const at = lines.findIndex((l) => l.includes(' runs with a known outcome '));
  return lines.slice(at, at + 2);
};

describe('calibrate: runs left out and the prior, with --runs', () => {
  it('says the counts are not known for saved runs, never 0', async () => {
    const r = await cliShared('calibrate', '--runs', FIXTURE, '--split', 'none');
    expect(r.code).toBe(0);
    expect(head(r.stdout)).toEqual([
      expect.stringMatching(/^\d+ runs with a known outcome \(\d+ passing, \d+ failing\); the number without one left out is not known for saved runs \(--runs\)$/) as string,
      'reference-free scores: as saved (--runs); how many bundled reference trajectories their temporal prior pooled is not known',
    ]);
    expect(r.stdout).not.toMatch(/pooled from 0 |; 0 without one left out/);
  }, 120_000);

  it('gives the counts of PATH, marked as such beside --runs', async () => {
    const outcomes = ['--outcomes', path.join(RUNS, 'outcomes.csv'), '--split', 'none'];
    const alone = await cli('calibrate', ...outcomes, RUNS);
    expect(head(alone.stdout)[0]).toMatch(/; 1 without one left out$/);
    expect(head(alone.stdout)[1]).toMatch(/^reference-free scores: temporal prior pooled from [1-9]\d* bundled reference trajectories$/);
    const both = await cli('calibrate', '--runs', FIXTURE, ...outcomes, RUNS);
    expect(head(both.stdout)[0]).toMatch(/; 1 without one left out \(of PATH; not known for the --runs files\)$/);
    expect(head(both.stdout)[1]).toMatch(/^reference-free scores: temporal prior pooled from [1-9]\d* bundled reference trajectories \(of PATH; not known for the --runs files\)$/);
  }, 180_000);
});
