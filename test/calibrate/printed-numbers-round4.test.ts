/**
 * audit24 ("every rate with its n and an interval"): `calibrate`'s failing side printed `91 (11.2%)` (per kind) and
 * `12/810 (1.5%)`, `146 (1.1%)` (trade-off tables) with no interval, while the passing side had its upper bound:
 * the failing-stopped rate now has its n and Wilson's 95 % interval, the saved shares of steps and tokens their
 * denominators (the failing runs' sums) and a 95 % bootstrap interval resampling the failing runs, in text and --json.
 */
import { describe, expect, it } from 'vitest';
import { clusteredRatioInterval } from '../../src/core/stats/clustered.js';
import { wilsonInterval, type Interval } from '../../src/core/stats/interval.js';
import { RatioDraws } from '../../src/core/stats/ratio-draws.js';
import type { TradeoffPoint } from '../../src/core/calibrate/tradeoff-types.js';
import { cliShared } from '../cli/run-cli.js';

const RUNS = 'test/fixtures/early-stop-runs.jsonl.gz';
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const iv = (i: Interval | null) => (i === null ? '[-]' : `[${pct(i.lo)}, ${pct(i.hi)}]`);

/** The --json's points are the core's (JSON has no `undefined`, and the test reads these fields only). */
type Point = TradeoffPoint;
interface Row {
  threshold: number;
  failingStopped: number;
  failing: number;
  failingRate: number | null;
  failingInterval: Interval | null;
}

describe('calibrate: the failing side with its n and intervals', () => {
  it('gives every printed point its Wilson interval, denominators and share intervals, in --json and the text', async () => {
    const [text, json] = await Promise.all([cliShared('calibrate', '--runs', RUNS, '--split', 'none'), cliShared('calibrate', '--runs', RUNS, '--split', 'none', '--json')]);
    expect(text.code).toBe(0);
    const doc = JSON.parse(json.stdout) as {
      runs: { failing: number };
      kinds: Record<string, { rows: Row[] }>;
      tradeoff: { runs: { failing: number; failingTokens: number }; front: Record<string, Array<{ modes: Record<string, Point> }>>; chosen: { modes: Record<string, Point> } };
    };
    const t = doc.tradeoff;
    const points = [...Object.values(t.front).flatMap((f) => f.flatMap((g) => Object.values(g.modes))), ...Object.values(t.chosen.modes)];
    expect(points.length).toBeGreaterThan(4);
    let withShare = 0;
    for (const p of points) {
      expect(p.failing).toBe(t.runs.failing);
      expect(p.failingInterval).toEqual(wilsonInterval(p.failingStopped, p.failing));
      expect(p.failingTokens).toBeCloseTo(t.runs.failingTokens, 6);
      expect(p.failingStepsShare).toBeCloseTo(p.failingStepsSaved / p.failingSteps, 12);
      for (const [share, i] of [
        [p.failingStepsShare, p.failingStepsShareInterval],
        [p.failingTokenShare, p.failingTokenShareInterval],
      ] as const) {
        if (p.failingStopped === 0) expect(i).toBeNull();
        if (i === null) continue;
        withShare += 1;
        expect(i.lo).toBeLessThan(i.hi);
        expect(i.lo).toBeLessThanOrEqual(share!);
        expect(i.hi).toBeGreaterThanOrEqual(share!);
      }
      const cells = [
        `${p.failingStopped}/${p.failing} (${pct(p.failingRate!)} ${iv(p.failingInterval)})`,
        `${p.failingStepsSaved}/${p.failingSteps} (${pct(p.failingStepsShare!)} ${iv(p.failingStepsShareInterval)})`,
        `${Math.round(p.failingTokensSaved)}/${Math.round(p.failingTokens)} (${pct(p.failingTokenShare!)} ${iv(p.failingTokenShareInterval)})`,
      ];
      for (const c of cells) expect(text.stdout).toContain(c);
    }
    expect(withShare).toBeGreaterThan(4);
    expect(text.stdout).toContain("failing stopped, Wilson 95% over the failing runs; steps and tokens saved, a share of the failing runs' sums");
    // Per kind: `stopped/failing (rate [lo, hi])`.
    for (const [, k] of Object.entries(doc.kinds))
      for (const r of k.rows) {
        expect(r.failing).toBe(doc.runs.failing);
        expect(r.failingInterval).toEqual(wilsonInterval(r.failingStopped, r.failing));
        expect(text.stdout).toContain(`${r.failingStopped}/${r.failing} (${pct(r.failingRate!)} ${iv(r.failingInterval)})`);
      }
  });

  it('draws the share of sums with num and den together, runs resampled', () => {
    const parts = Array.from({ length: 40 }, (_, i) => [{ num: i % 4 === 0 ? i : 0, den: 10 + i }]);
    const i = clusteredRatioInterval(parts)!;
    const share = parts.reduce((s, [p]) => s + p!.num, 0) / parts.reduce((s, [p]) => s + p!.den, 0);
    expect(i.lo).toBeLessThan(share);
    expect(i.hi).toBeGreaterThan(share);
    expect(clusteredRatioInterval(parts.slice(0, 4))).toBeNull();
  });

  it("draws every policy's shares once per run set (RatioDraws), as clusteredRatioInterval over runs", () => {
    const n = 60;
    const steps = Array.from({ length: n }, (_, i) => 5 + ((i * 7) % 23));
    const tokens = steps.map((x, i) => x * (100 + ((i * 13) % 50)));
    const draws = new RatioDraws(n, [steps, tokens]);
    for (const stopped of [[3], [0, 7, 8, 30], Array.from({ length: 20 }, (_, i) => 3 * i)]) {
      const saved = (j: number) => Math.floor(steps[j]! / 2);
      const parts = steps.map((x, j) => [{ num: stopped.includes(j) ? saved(j) : 0, den: x }]);
      expect(
        draws.interval(
          0,
          stopped.map((j) => [j, saved(j)] as const),
        ),
      ).toEqual(clusteredRatioInterval(parts));
      const tparts = tokens.map((x, j) => [{ num: stopped.includes(j) ? x / 4 : 0, den: x }]);
      const t = draws.interval(
        1,
        stopped.map((j) => [j, tokens[j]! / 4] as const),
      )!;
      const u = clusteredRatioInterval(tparts)!;
      expect(t.lo).toBeCloseTo(u.lo, 12);
      expect(t.hi).toBeCloseTo(u.hi, 12);
    }
    expect(new RatioDraws(4, [[1, 2, 3, 4]]).interval(0, [[0, 1]])).toBeNull();
  });
});
