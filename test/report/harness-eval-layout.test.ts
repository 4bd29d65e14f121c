/**
 * Outcomes from the SWE-bench harness's per-instance `report.json` kept under another run-id folder than
 * `logs/run_evaluation/<run id>/` (RussellRyanH/CSCI-635-LiveSWE-Agent's `eval_results/openai__gpt-5-mini/<task>/`,
 * two of its real runs in test/fixtures/harness-eval-layout). Before, `report`, `calibrate` and `train` skipped those
 * files as evaluations and left all 31 runs of that source unknown ("give --outcomes FILE").
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../cli/run-cli.js';

const LAYOUT = fileURLToPath(new URL('../fixtures/harness-eval-layout/gpt-5-mini', import.meta.url));
const SKLEARN = 'scikit-learn__scikit-learn-15100';
const ASTROPY = 'astropy__astropy-13033';

interface Doc {
  trajectories: Array<{ task: string | null; outcome: string; outcomeSource: string; model: string | null }>;
}

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function outcomes(dir: string): Promise<Map<string | null, { outcome: string; outcomeSource: string }>> {
  const run = await cli('report', '--json', dir);
  expect(run.code).toBe(0);
  const doc = JSON.parse(run.stdout) as Doc;
  return new Map(doc.trajectories.map((t) => [t.task, { outcome: t.outcome, outcomeSource: t.outcomeSource }]));
}

describe('harness report.json under another run-id folder', () => {
  it('reads each run its own model folder report (resolved and not)', async () => {
    const got = await outcomes(LAYOUT);
    expect(got.get(SKLEARN)).toEqual({ outcome: 'pass', outcomeSource: join(LAYOUT, 'eval_results', 'openai__gpt-5-mini', SKLEARN, 'report.json') });
    expect(got.get(ASTROPY)).toEqual({ outcome: 'fail', outcomeSource: join(LAYOUT, 'eval_results', 'openai__gpt-5-mini', ASTROPY, 'report.json') });
  });

  it('names no outcome when two run-id folders disagree, nor from another model folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'steplens-harness-'));
    made.push(dir);
    cpSync(LAYOUT, dir, { recursive: true });
    // A second evaluation of the sklearn run that says the opposite (the real report with `resolved` flipped).
    const real = JSON.parse(readFileSync(join(LAYOUT, 'eval_results', 'openai__gpt-5-mini', SKLEARN, 'report.json'), 'utf8')) as Record<string, { resolved: boolean }>;
    real[SKLEARN]!.resolved = false; // the key the fixture's report holds
    mkdirSync(join(dir, 'rerun', 'openai__gpt-5-mini', SKLEARN), { recursive: true });
    writeFileSync(join(dir, 'rerun', 'openai__gpt-5-mini', SKLEARN, 'report.json'), JSON.stringify(real));
    // The astropy report moved under another model's folder: not this run's evaluation.
    const astropyDir = join(dir, 'eval_results', 'openai__gpt-5-mini', ASTROPY);
    mkdirSync(join(dir, 'eval_results', 'other__model', ASTROPY), { recursive: true });
    cpSync(join(astropyDir, 'report.json'), join(dir, 'eval_results', 'other__model', ASTROPY, 'report.json'));
    rmSync(astropyDir, { recursive: true });
    const got = await outcomes(dir);
    expect(got.get(SKLEARN)?.outcome).toBe('unknown');
    expect(got.get(ASTROPY)?.outcome).toBe('unknown');
  });
});
