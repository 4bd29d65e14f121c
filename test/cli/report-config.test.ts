/**
 * `report --config`: a corpus is scored with the same scoring config `score --config` and `serve --config` take
 * (weights, tier thresholds, ...), and report.json names it; before, report always used the shipped defaults, so a
 * team with its own config could not get a report that matched its server's scores (stop 42 left item).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { packageRoot } from '../../src/package-files.js';
import { cli } from './run-cli.js';

const runs = path.join(packageRoot(), 'examples', 'runs', 'mini-swe-agent');

interface Report {
  inputs: { config?: string };
  trajectories: Array<{ id: string; tier?: string; score?: { total: number } }>;
}

it('scores every run with the config given, names it in the report, and refuses a bad one naming the file', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'steplens-report-config-'));
  const strict = path.join(dir, 'strict.json');
  writeFileSync(strict, JSON.stringify({ tiers: { ideal: 99, solid: 98, partial: 98 } }));
  const shipped = await cli('report', '--json', runs);
  const mine = await cli('report', '--json', '--config', strict, runs);
  expect(shipped.code).toBe(0);
  expect(mine.code).toBe(0);
  const a = JSON.parse(shipped.stdout) as Report;
  const b = JSON.parse(mine.stdout) as Report;
  expect(a.inputs.config).toBeUndefined();
  expect(b.inputs.config).toBe(strict);
  const scored = a.trajectories.filter((t) => t.score !== undefined);
  expect(scored.length).toBeGreaterThan(2);
  // The thresholds moved, the scores did not: no run reaches 98 here, so none keeps a passing tier above Lucky.
  expect(b.trajectories.map((t) => t.score?.total)).toEqual(a.trajectories.map((t) => t.score?.total));
  expect(scored.every((t) => typeof t.score!.total === 'number')).toBe(true);
  expect(a.trajectories.some((t) => t.tier === 'Ideal' || t.tier === 'Solid')).toBe(true);
  expect(b.trajectories.some((t) => t.tier === 'Ideal' || t.tier === 'Solid')).toBe(false);

  const bad = path.join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ tiers: { ideal: 'high' } }));
  const refused = await cli('report', '--json', '--config', bad, runs);
  expect(refused.code).toBe(1);
  expect(refused.stdout).toBe('');
  expect(refused.stderr).toContain('bad.json');
  expect(refused.stderr.trim().split('\n')).toHaveLength(1);
});
