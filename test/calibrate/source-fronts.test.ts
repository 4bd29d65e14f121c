/**
 * calibrate's trade-off front per source beside the pooled one (ece29): the pooled front mixes sources, so each
 * source with enough passing runs for a stop to meet the bound gets its own, from its runs alone, with its n; the
 * others are named with theirs. On the shipped policy's runs (test/fixtures/early-stop-runs.jsonl.gz).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SourceFront } from '../../src/cli/calibrate-source-fronts.js';
import { cli } from '../cli/run-cli.js';

const FIXTURE = path.resolve('test/fixtures/early-stop-runs.jsonl.gz');

describe('calibrate: the trade-off front per source', () => {
  it('gives CodeR and SWE-agent 0.x their own fronts in --json, the sources under 59 passing runs none', async () => {
    const r = await cli('calibrate', '--runs', FIXTURE, '--split', 'none', '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { sourceFronts: SourceFront[]; tradeoff: { runs: { passing: number } } };
    expect(doc.tradeoff.runs.passing).toBe(192);
    const withFront = doc.sourceFronts.filter((f) => f.front !== null).map((f) => [f.source, f.passing, f.failing]);
    expect(withFront).toEqual([
      ['CodeR + gpt-4', 64, 135],
      ['SWE-agent 0.x + gpt-4', 75, 646],
    ]);
    expect(doc.sourceFronts).toHaveLength(15);
    for (const f of doc.sourceFronts.filter((x) => x.front !== null)) {
      // Every point counts that source's runs only, and the front starts at no false stop.
      for (const p of f.front!.referenceFree) expect([p.modes.referenceFree.passing, p.modes.referenceFree.failing]).toEqual([f.passing, f.failing]);
      expect(f.front!.referenceFree[0]!.modes.referenceFree.passingStopped).toBe(0);
    }
  }, 180_000);

  it('prints each front with its n after the pooled one, and names the others with theirs', async () => {
    const r = await cli('calibrate', '--runs', FIXTURE, '--split', 'none');
    expect(r.code).toBe(0);
    const pooled = r.stdout.indexOf('trade-off, reference-free (Pareto front');
    const coder = r.stdout.indexOf('trade-off per source, CodeR + gpt-4 alone (n 64 passing / 135 failing; its own Pareto front, reference-free; in-sample)');
    expect(pooled).toBeGreaterThan(-1);
    expect(coder).toBeGreaterThan(pooled);
    expect(r.stdout).toContain('trade-off per source, SWE-agent 0.x + gpt-4 alone (n 75 passing / 646 failing;');
    expect(r.stdout).toMatch(/no front of its own \(fewer passing runs than a stop needs to meet the bound, 59\): .*mini-swe-agent 2\.2\.4 \+ openai\/gpt-5-mini \(n 18 \/ 13\)/);
  }, 180_000);
});
