/**
 * audit21: where no failing (or no passing) run was scored, report's headline printed the AUROCs as a bare "-"
 * ("within task - (0 pass/fail pairs ...); pooled - on 1 passing / 0 failing, beside - for the source alone"), which
 * reads like a dash in the text, not a figure that cannot exist. It now says undefined, and why.
 */
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run-cli.js';

describe('report: an AUROC with one class absent', () => {
  it('says undefined, not "-"', async () => {
    // One real run (examples/runs, SWE-agent 1.1.0 + kimi-k2 on dask__dask-8685), passing by its outcomes.csv.
    const run = await cli('report', 'examples/runs/swe-agent-1', '--outcomes', 'examples/runs/outcomes.csv');
    expect(run.code).toBe(0);
    const line = run.stdout.split('\n').find((l) => l.startsWith('AUROC of the composite score'))!;
    expect(line).toContain('within source: the one source has fewer than 3 passing or 3 failing runs; ');
    expect(line).toContain('within task undefined (0 pass/fail pairs of one source and task, 0 tasks)');
    expect(line).toContain('pooled undefined on 1 passing / 0 failing, beside undefined for the source alone');
    expect(line).toContain('an AUROC needs passing and failing runs');
    expect(line).not.toMatch(/ - (on|for|\()/);
  });
});
