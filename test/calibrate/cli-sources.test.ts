/** `steplens calibrate` across sources, from the scored runs in the repo: leave-one-source-out, flags that do not combine, bad tables. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { SourceSplitReport, TradeoffResult } from '../../src/core/calibrate/index.js';
import { CORPUS, cli } from '../cli/run-cli.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/early-stop-runs.jsonl.gz', import.meta.url));

describe('steplens calibrate across sources', () => {
  const dir = mkdtempSync(join(tmpdir(), 'steplens-cal-sources-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--split source: one fold per source, each judged by the policy chosen on the others; per-source caps hold in-sample', async () => {
    const run = await cli('calibrate', '--runs', FIXTURE, '--split', 'source', '--max-false-stop', '0.03', '--source-max', '0.02', '--json');
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as { tradeoff: TradeoffResult; sourceSplit: SourceSplitReport };
    expect(doc.sourceSplit.folds).toHaveLength(15);
    expect(doc.sourceSplit.pooledOutOfSample.referenceFree).toMatchObject({ passing: 192, failing: 810 });
    const coder = doc.sourceSplit.folds.find((f) => f.holdout === 'CodeR + gpt-4')!;
    expect(coder.trainingSources).toHaveLength(14);
    // Chosen without CodeR, the policy stops CodeR's passing runs: the reason the default is chosen --portable.
    expect(coder.outOfSample.referenceFree.passingStopped).toBeGreaterThan(1);
    for (const s of doc.tradeoff.chosen.bySource!) {
      expect(s.modes.referenceFree.passingStopped).toBeLessThanOrEqual(Math.floor(0.02 * s.modes.referenceFree.passing));
    }
    const text = await cli('calibrate', '--runs', FIXTURE, '--split', 'source', '--max-false-stop', '0.03');
    expect(text.stdout).toContain('leave-one-source-out: each source judged by the policy chosen on the other sources');
    expect(text.stdout).toMatch(/all sources held out\s+reference-free/);
  }, 120_000);

  it('refuses flags that do not combine and names a bad sources table', async () => {
    const both = await cli('calibrate', '--runs', FIXTURE, '--by', 'agent', '--portable');
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('--by and --portable do not combine');
    const split = await cli('calibrate', '--runs', FIXTURE, '--by', 'model', '--split', 'source');
    expect(split.stderr).toContain('--by and --split source do not combine');
    expect((await cli('calibrate', '--runs', FIXTURE, '--bound', 'bayes')).stderr).toContain("--bound must be clopper-pearson or wilson, got 'bayes'");
    expect((await cli('calibrate', '--runs', FIXTURE, '--confidence', '1')).stderr).toContain('--confidence must be strictly between 0 and 1');
    const bad = join(dir, 'sources.csv');
    writeFileSync(bad, 'folder,agent\nx,y\n');
    const table = await cli('calibrate', CORPUS, '--sources', bad);
    expect(table.code).toBe(1);
    expect(table.stderr).toContain("sources.csv: expected a CSV header with 'run'");
    const missing = await cli('calibrate', '--runs', join(dir, 'nope.jsonl'));
    expect(missing.stderr).toMatch(/cannot read --runs .*nope\.jsonl/);
  }, 60_000);
});
