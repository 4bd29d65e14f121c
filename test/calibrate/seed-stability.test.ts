/**
 * Review s41 item 1: the written stop policy must not depend on `--seed`. With one random half split by task,
 * seed 2 and 3 wrote stops (explorationStreak 40, noAction 2, lowScore <20 after 30; seed 3 also blindRetry 11)
 * while seeds 1, 4 and 5 wrote warn only, on the same 1002 scored runs. The check now repeats the split
 * (deterministically from the seed) and writes a stop only where every split confirmed it.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { noStops, type ConfirmedTradeoff } from '../../src/core/calibrate/index.js';
import type { Policy } from '../../src/core/policy.js';
import { cli } from '../cli/run-cli.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/early-stop-runs.jsonl.gz', import.meta.url));

describe('calibrate: the written policy does not flip with --seed', () => {
  it('writes the same policy for seeds 1 to 5 on the 1002 scored runs, and says how many splits confirmed it', async () => {
    const docs: Array<{ policy: Policy; tradeoff: ConfirmedTradeoff }> = [];
    for (const seed of [1, 2, 3, 4, 5]) {
      const run = await cli('calibrate', '--runs', FIXTURE, '--seed', String(seed), '--json');
      expect(run.code, run.stderr).toBe(0);
      docs.push(JSON.parse(run.stdout) as { policy: Policy; tradeoff: ConfirmedTradeoff });
    }
    const written = docs.map((d) => JSON.stringify(d.policy));
    expect(new Set(written).size, 'one written policy for every seed').toBe(1);
    for (const d of docs) {
      const c = d.tradeoff.confirmation;
      expect(c.check).toBe('half');
      // Five half splits per seed; a stop needs all of them.
      expect(c.splits).toHaveLength(5);
      expect(c.required).toBe(5);
      expect(c.confirmed).toEqual(noStops());
      expect(c.warnOnly).toBe(true);
    }
    // Seed 3's own first split still confirms stops (the split the old check relied on alone); the others do not.
    const seed3 = docs[2]!.tradeoff.confirmation;
    expect(seed3.splits[0]!.heldOutWithinBound).toBe(true);
    expect(seed3.splits[0]!.confirmed).not.toEqual(noStops());
    expect(seed3.confirmedOn).toBeLessThan(5);
  }, 240_000);

  it('prints how stable the choice was', async () => {
    const run = await cli('calibrate', '--runs', FIXTURE, '--seed', '2');
    expect(run.stdout).toMatch(/^ {2}stability: the in-sample choice \(.+\) was confirmed whole on \d of 5 task splits \(a stop needs all 5\); per kind: /m);
    expect(run.stdout).toContain('  written: warn only (no stop is confirmed)');
  }, 120_000);
});
