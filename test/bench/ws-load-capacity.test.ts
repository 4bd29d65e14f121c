/**
 * ws-load's capacity rounds (bench/README.md, half22): the half-load row runs at half the paced shape's capacity, so
 * the capacity must be found, not a lower bound. Stop 69's one round answered 28,112 of 30,000 offered steps/s,
 * printed "the capacity is not reached", and the row ran at half of that anyway. Now the offer grows ×1.5 a round
 * while 90 % of it is answered, up to `--capacity-rounds`. The offers and the capacity they give, never timed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readmeUsage } from '../../bench/args.js';
import { CAPACITY_REACHED, CAPACITY_STEP, capacityOf, nextCapacityOffer, pacedRates, roundRates, type Capacity } from '../../bench/ws-load-paced.js';
import { packageRoot } from '../../src/package-files.js';

/** A capacity round against a server that answers at most `carries` steps/s. */
function round(offered: number, carries: number): Capacity {
  const answered = Math.min(offered, carries);
  return { offered, sent: answered, answered, busyPct: 100, cpuUsPerStep: 1, reached: answered < CAPACITY_REACHED * offered };
}

/** The rounds the bench runs from `first` steps/s against that server, at most `rounds`. */
function rounds(first: number, carries: number, most: number): Capacity[] {
  const out: Capacity[] = [];
  for (let next: number | undefined = first; next !== undefined;) {
    out.push(round(next, carries));
    const last = out.at(-1)!;
    next = nextCapacityOffer(last.offered, last.answered, out.length, most);
  }
  return out;
}

describe('ws-load capacity rounds (half22)', () => {
  it("offers more after stop 69's round (28,112 answered of 30,000), not after one that fell short of its offer", () => {
    expect(nextCapacityOffer(30_000, 28_112, 1, 3)).toBe(30_000 * CAPACITY_STEP);
    expect(nextCapacityOffer(45_000, 31_000, 2, 3)).toBeUndefined();
    // The last round allowed ends the series even if it answered its offer.
    expect(nextCapacityOffer(45_000, 45_000, 3, 3)).toBeUndefined();
    expect(nextCapacityOffer(30_000, 30_000, 1, 1)).toBeUndefined();
  });

  it('steps the offer up until the server falls short of it, and halves what it carried for the row', () => {
    const rs = rounds(30_000, 40_000, 3);
    expect(rs.map((r) => r.offered)).toEqual([30_000, 45_000]);
    const found = capacityOf(rs);
    expect(found).toMatchObject({ answered: 40_000, reached: true, rounds: 2 });
    expect(pacedRates('half-paced,500', Number.NaN, found.answered)[0]).toEqual({ label: 'half-paced', rate: 20_000 });
  });

  it('says the capacity is a lower bound when every round answered its offer', () => {
    const rs = rounds(30_000, 1e9, 3);
    expect(rs.map((r) => r.offered)).toEqual([30_000, 45_000, 67_500]);
    expect(capacityOf(rs)).toMatchObject({ answered: 67_500, reached: false, rounds: 3 });
  });

  it('keeps the most any round answered when a larger offer answered less', () => {
    const rs = [round(30_000, 29_000), { ...round(45_000, 26_000) }];
    const found = capacityOf(rs);
    expect(found.answered).toBe(29_000);
    expect(found.best.offered).toBe(30_000);
    expect(found.reached).toBe(true);
  });

  it('run-all gives ws-load only flags its usage names, --capacity-rounds among them', () => {
    const root = packageRoot();
    const runAll = readFileSync(path.join(root, 'bench/run-all.ts'), 'utf8');
    const entry = /\{ name: 'ws-load', args: \[([^\]]*)\]/.exec(runAll)?.[1] ?? '';
    const flags = [...entry.matchAll(/'(--[a-z-]+)'/g)].map((m) => m[1]!);
    expect(flags).toContain('--capacity-rounds');
    const usage = readmeUsage(readFileSync(path.join(root, 'bench/README.md'), 'utf8'), 'ws-load') ?? '';
    expect(flags.filter((f) => !usage.includes(`[${f} `) && !usage.includes(`[${f}]`))).toEqual([]);
  });

  // Stop 72's run-all (bench/README.md, /tmp/bench72/ws-load.json): an 8 s window of the first round, 30,000 offered,
  // 29,995.26 sent a second, 30,516.40 scored a second: 4,169 scores more than sends, of steps the warm-up left in flight.
  const stop72 = { sent: 239_962, scored: 244_131, seconds: 8 };

  it("never answers more than a round sent: stop 72's first round reads its sent rate, not 30,516 (cap28)", () => {
    const r = roundRates(stop72);
    expect(r.answered).toBeLessThanOrEqual(r.sent);
    expect(r.answered).toBeCloseTo(29_995.25, 2);
    expect(r.drained).toBe(4_169);
  });

  it('reads every score of a saturated round, those of warm-up steps too (the server was busy the whole window)', () => {
    // Stop 72's second round: 45,000 offered, 22,769 answered a second (its sends were not recorded: 37,500 a second here).
    const r = roundRates({ sent: 300_000, scored: 182_152, seconds: 8 });
    expect(r).toEqual({ sent: 37_500, answered: 22_769, drained: 0 });
  });

  it("halves stop 72's capacity at most at half the first round's sent rate", () => {
    const first = roundRates(stop72);
    const rs: Capacity[] = [
      { offered: 30_000, ...first, busyPct: 102, cpuUsPerStep: 33.3, reached: first.answered < CAPACITY_REACHED * 30_000 },
      { offered: 45_000, sent: 37_500, answered: 22_769, busyPct: 106, cpuUsPerStep: 46.5, reached: true },
    ];
    const found = capacityOf(rs);
    expect(found.answered).toBeLessThanOrEqual(found.best.sent);
    expect(pacedRates('half-paced', Number.NaN, found.answered)[0]!.rate).toBeLessThanOrEqual(29_995.26 / 2);
  });
});
