/**
 * `steplens rank --rank-model end` through the built bin on real corpus runs of one task (task endrank29), with a
 * real model file (test/fixtures/forecast-end: `steplens train` on the team's 1,002 public runs, its evaluation and
 * run list cut): the file ranks exactly as the same file without its end model unless asked; asked, each finished
 * run's pPass is the end model's of its batch end row, the order is by it (it differs on this group), the composite
 * untouched; refused from a file without an end model.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { endPPass } from '../../src/core/forecast/end-model.js';
import { FEATURE_COUNT } from '../../src/core/forecast/features.js';
import { parseForecast } from '../../src/core/forecast/model.js';
import { forecastRun } from '../../src/core/forecast/run.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { scoreSteps } from '../../src/core/scorer.js';
import { parseTrajectoryText } from '../../src/formats/index.js';
import { packageRoot } from '../../src/package-files.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { CORPUS } from './run-cli.js';
import { RANK_BIN, rankBin, rankJson } from './rank-bin.js';

const M = path.join(CORPUS, 'SWE-agent__mini-swe-agent__pull-refs/output');
const A1196 = ['deepseek_chat_dev', 'deepseek_chat_dev_rerun', 'deepseek_lite_dev_noparallel'].map((n) => path.join(M, n, 'pylint-dev__astroid-1196', 'pylint-dev__astroid-1196.traj.json'));
const FIXTURE = path.join(packageRoot(), 'test', 'fixtures', 'forecast-end', 'forecast-end.json.gz');
const dir = mkdtempSync(path.join(os.tmpdir(), 'steplens-rank-end-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!existsSync(RANK_BIN))('steplens rank --rank-model (dist)', () => {
  const parsed = parseForecast(JSON.parse(gunzipSync(readFileSync(FIXTURE)).toString('utf8')));
  if (!parsed.ok) throw new Error(parsed.error);
  const file = parsed.value;
  const withEnd = path.join(dir, 'with-end.json');
  const without = path.join(dir, 'without-end.json');
  writeFileSync(withEnd, JSON.stringify(file));
  const { end: _, ...old } = file;
  writeFileSync(without, JSON.stringify(old));

  it('ranks by the prefix model unless asked: the same output with or without an end model in the file', () => {
    const before = rankBin('--forecast', without, ...A1196);
    expect(before.code).toBe(0);
    expect(rankBin('--forecast', withEnd, ...A1196)).toEqual(before);
    expect(rankBin('--forecast', withEnd, '--rank-model', 'prefix', ...A1196)).toEqual(before);
  });

  it('with --rank-model end orders by the end model pPass of each finished run, the composite unchanged', () => {
    const prefix = rankJson('--forecast', withEnd, ...A1196);
    const end = rankJson('--forecast', withEnd, '--rank-model', 'end', ...A1196);
    expect(end.by).toBe('pPass');
    for (const x of end.runs) {
      const log = parseTrajectoryText(readFileSync(A1196[x.index]!, 'utf8'), 'auto', A1196[x.index]);
      if (!log.ok) throw log.error;
      const steps = log.value.steps;
      const { results } = scoreSteps(steps, { reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers() });
      const identity = { id: '', task: '', agent: '', model: '', passed: false };
      const run = forecastRun(
        identity,
        steps,
        results.map((r) => r.state),
        results.map((r) => r.label),
      );
      const row = run.rows.slice((run.length - 1) * FEATURE_COUNT);
      expect(x.pPass).toBe(endPPass(file.end!, log.value.meta.agent, log.value.meta.model, row));
      expect(x.score).toBe(x.pPass);
      expect(x.composite).toBe(prefix.runs.find((y) => y.index === x.index)!.composite);
    }
    expect(end.runs.map((x) => x.score)).toEqual([...end.runs.map((x) => x.score)].sort((a, b) => b - a));
    // The two models order this group differently (the prefix model: 0, 2, 1): the order changed through the end model alone.
    expect(prefix.runs.map((x) => x.index)).toEqual([0, 2, 1]);
    expect(end.runs.map((x) => x.index)).toEqual([2, 1, 0]);
    expect(rankBin('--forecast', withEnd, '--rank-model', 'end', ...A1196).stdout.split('\n')[0]).toBe(
      'pylint-dev__astroid-1196: 3 runs ordered by the forecast P(pass) of each run by the end-of-run model (--rank-model end)',
    );
  });

  it('refuses --rank-model end from a file without an end model, and --rank-model without --forecast', () => {
    const r = rankBin('--forecast', without, '--rank-model', 'end', ...A1196);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`--rank-model end: ${without} has no end-of-run model`);
    const u = rankBin('--rank-model', 'end', ...A1196);
    expect(u.code).not.toBe(0);
    expect(u.stderr).toContain('--rank-model chooses which forecast model scores finished runs: give --forecast too');
    expect(rankBin('--forecast', withEnd, '--rank-model', 'best', ...A1196).stderr).toContain('--rank-model best: expected prefix or end');
  });
});
