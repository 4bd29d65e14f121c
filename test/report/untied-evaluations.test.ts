/**
 * Runs left `unknown` while an evaluation under PATH that no run's outcome came from names their task: `report`,
 * `calibrate` and `train` say so (before, the evaluation was skipped as metadata and the runs were unknown without a
 * word; on ../shared/calibration without its manifest, 143 SWE-agent 0.x runs beside auto-code-rover's
 * `final_report.json`). The fixture is two real mini-swe-agent runs with their harness reports
 * (test/fixtures/harness-eval-layout), the reports' model folder renamed so that no rule ties them to the runs.
 */
import { cpSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../cli/run-cli.js';

const LAYOUT = fileURLToPath(new URL('../fixtures/harness-eval-layout/gpt-5-mini', import.meta.url));

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

function copy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'steplens-untied-'));
  made.push(dir);
  cpSync(LAYOUT, dir, { recursive: true });
  return dir;
}

describe('runs without an outcome beside evaluations of their tasks', () => {
  it('report warns with the counts and a file; calibrate and train name it before refusing', async () => {
    const dir = copy();
    renameSync(join(dir, 'eval_results', 'openai__gpt-5-mini'), join(dir, 'eval_results', 'gpt5mini-run'));
    const report = await cli('report', '--json', dir);
    expect(report.code).toBe(0);
    const doc = JSON.parse(report.stdout) as { counts: { unknown: number }; warnings: string[] };
    expect(doc.counts.unknown).toBe(2);
    const line = doc.warnings.find((w) => w.includes('runs without an outcome have their task'));
    expect(line).toMatch(/^2 of 2 runs without an outcome have their task in 2 evaluation files \(among the paths given\) that no run's outcome was read from \(e\.g\. .*gpt5mini-run.*report\.json;/);
    expect(report.stderr).toContain(`warning: ${line!}`);
    for (const command of [['calibrate'], ['train', '--out', join(dir, 'f.json')]]) {
      const run = await cli(...command, dir);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain('warning: 2 of 2 runs without an outcome have their task in 2 evaluation files');
    }
  });

  it('says nothing when the evaluations were read (each run its own)', async () => {
    const report = await cli('report', '--json', copy());
    const doc = JSON.parse(report.stdout) as { counts: { unknown: number }; warnings: string[] };
    expect(doc.counts.unknown).toBe(0);
    expect(doc.warnings.join('\n')).not.toContain('without an outcome');
  });
});
