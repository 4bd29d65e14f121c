/**
 * `steplens report --rank-model end` (task endrank29) on real corpus runs of one task with a real model file
 * (test/fixtures/forecast-end): each run's pPass is the end-of-run model's, the same as `rank --rank-model end`
 * gives the same files, and the report says so; without the flag the prefix model's, as before.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-files.js';
import { cli, CORPUS } from './run-cli.js';

const M = path.join(CORPUS, 'SWE-agent__mini-swe-agent__pull-refs/output');
const NAMES = ['deepseek_chat_dev', 'deepseek_chat_dev_rerun', 'deepseek_lite_dev_noparallel'];
const TASK = 'pylint-dev__astroid-1196';
const dir = mkdtempSync(path.join(os.tmpdir(), 'steplens-report-end-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const model = path.join(dir, 'forecast.json');
writeFileSync(model, gunzipSync(readFileSync(path.join(packageRoot(), 'test', 'fixtures', 'forecast-end', 'forecast-end.json.gz'))));
const files = NAMES.map((n) => {
  mkdirSync(path.join(dir, 'run', n), { recursive: true });
  const to = path.join(dir, 'run', n, `${TASK}.traj.json`);
  copyFileSync(path.join(M, n, TASK, `${TASK}.traj.json`), to);
  return to;
});

interface Doc {
  inputs: { forecastModel?: string };
  trajectories: Array<{ pPass: number }>;
}
const pPasses = (doc: { runs?: Array<{ pPass?: number }>; trajectories?: Array<{ pPass: number }> }) => (doc.runs ?? doc.trajectories ?? []).map((x) => x.pPass).sort();

describe('steplens report --rank-model end', () => {
  it("gives each finished run the end model's pPass, as rank --rank-model end does, and says so", async () => {
    const end = await cli('report', path.join(dir, 'run'), '--forecast', model, '--rank-model', 'end', '--json');
    expect(end.code, end.stderr).toBe(0);
    const doc = JSON.parse(end.stdout) as Doc;
    expect(doc.inputs.forecastModel).toBe('end');
    const ranked = await cli('rank', ...files, '--forecast', model, '--rank-model', 'end', '--json');
    expect(pPasses(doc)).toEqual(pPasses(JSON.parse(ranked.stdout) as { runs: Array<{ pPass: number }> }));
    const text = await cli('report', path.join(dir, 'run'), '--forecast', model, '--rank-model', 'end');
    expect(text.stdout).toContain("pPass: by the forecast file's end-of-run model (--rank-model end), each run read as finished");

    const prefix = JSON.parse((await cli('report', path.join(dir, 'run'), '--forecast', model, '--json')).stdout) as Doc;
    expect(prefix.inputs.forecastModel).toBeUndefined();
    expect(pPasses(prefix)).toEqual(pPasses(JSON.parse((await cli('rank', ...files, '--forecast', model, '--json')).stdout) as { runs: Array<{ pPass: number }> }));
    expect(pPasses(prefix)).not.toEqual(pPasses(doc));
  });
});
