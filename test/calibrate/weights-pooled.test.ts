/**
 * audit21: `calibrate --weights` printed its AUROCs (fit held out, in-sample, the paper's weights, each signal alone)
 * as bare pooled figures beside "runs 101": not how many of them passed (89 / 12 on the calibration set, every failing
 * one from one source), nor that they are pooled over sources with no interval. The table now gives the passing and
 * failing runs and says what the figures are and where the within-source ones are; --json has both counts.
 */
import { describe, expect, it } from 'vitest';
import { cliShared } from '../cli/run-cli.js';

const RUNS = 'test/fixtures/early-stop-runs.jsonl.gz';

describe('calibrate --weights: the AUROC table', () => {
  it('gives the passing and failing runs behind the pooled AUROCs and says they are pooled', async () => {
    const [text, json] = await Promise.all([cliShared('calibrate', '--runs', RUNS, '--weights', '--split', 'none'), cliShared('calibrate', '--runs', RUNS, '--weights', '--split', 'none', '--json')]);
    expect(text.code).toBe(0);
    const a = (JSON.parse(json.stdout) as { weights: { auroc: { reference: { runs: number; passing: number; failing: number } } } }).weights.auroc.reference;
    expect(a.passing + a.failing).toBe(a.runs);
    expect(a.failing).toBeGreaterThan(0);
    expect(text.stdout).toContain("AUROCs pooled over every source's runs with a reference, no interval");
    expect(text.stdout).toMatch(new RegExp(`\\nmode +runs \\(pass / fail\\) +AUROC fitted \\(held-out\\)`));
    expect(text.stdout).toMatch(new RegExp(`\\nwith references +${a.runs} \\(${a.passing} / ${a.failing}\\) +\\d\\.\\d{3}`));
  }, 120_000);
});
