/**
 * audit25: the README's per-source table of the shipped defaults replayed (stop 41's `noAction 2` and the one before
 * it) printed the failing side as bare points (`2/135`, `0.1 %`), while `calibrate` prints each with its n and
 * interval since audit24. Every cell is now what docs/early-stop.md's snippet prints (`evaluatePolicy` on the scored
 * runs of test/fixtures/early-stop-runs.jsonl.gz, reference-free), read here the same way.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readScoredRuns } from '../../src/cli/scored-runs.js';
import { evaluatePolicy, runFacts, settingsOf, type TradeoffPoint } from '../../src/core/calibrate/index.js';
import { thresholdRow } from '../../src/core/calibrate/tables.js';
import { DEFAULT_POLICY, type Policy } from '../../src/core/policy.js';
import type { Interval } from '../../src/core/stats/interval.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const previous: Policy = {
  ...DEFAULT_POLICY,
  blindRetry: { warn: 2, stop: 5 },
  regressionLoop: { warn: 3, stop: null },
  cycle: { warn: 3, stop: null, minBlock: 2, maxBlock: 4 },
  explorationStreak: { ...DEFAULT_POLICY.explorationStreak, warn: 20, stop: 40 },
  noAction: { warn: null, stop: null },
  lowScore: { floor: 45, minSteps: 30, severity: 'stop' },
};
const stop41: Policy = { ...DEFAULT_POLICY, noAction: { warn: 2, stop: 2 } };
/** The README's row names and the sources the fixture names. */
const ROWS: Array<[string, string]> = [
  ['CodeR + gpt-4', 'CodeR + gpt-4'],
  ['mini-swe-agent 2.2.4 + openai/gpt-5-mini', 'mini-swe-agent 2.2.4 + openai/gpt-5-mini'],
  ['SWE-agent 0.x + gpt-4', 'SWE-agent 0.x + gpt-4'],
  ['mini-swe-agent 2.2.7 + deepseek-chat', 'mini-swe-agent 2.2.7 + deepseek/deepseek-chat'],
  ['SWE-agent 0.x + doubao-pro-128k', 'SWE-agent 0.x + doubao-pro-128k'],
  ['**all 15 sources**', 'all'],
];

const pct = (x: number | null) => (x === null ? '-' : `${(100 * x).toFixed(1)} %`);
const iv = (i: Interval | null) => (i === null ? '[-]' : `[${(100 * i.lo).toFixed(1)}, ${(100 * i.hi).toFixed(1)}]`);
const cells = (x: TradeoffPoint) => [
  `${x.passingStopped}/${x.passing} (≤ ${pct(x.passingUpper)})`,
  `${x.failingStopped}/${x.failing} (${pct(x.failingRate)} ${iv(x.failingInterval)})`,
  `${x.failingStepsSaved}/${x.failingSteps} (${pct(x.failingStepsShare)} ${iv(x.failingStepsShareInterval)})`,
];

describe("README's table of the shipped defaults replayed", () => {
  it('prints every rate with its n, and the failing side with its interval, as evaluatePolicy gives them', () => {
    const runs = readScoredRuns('test/fixtures/early-stop-runs.jsonl.gz').map((s) => s.run);
    const facts = runs.map(runFacts);
    const [a, b] = [stop41, previous].map((p) => evaluatePolicy(runs, facts, p, settingsOf(p))) as [ReturnType<typeof evaluatePolicy>, ReturnType<typeof evaluatePolicy>];
    const point = (e: typeof a, source: string) => (source === 'all' ? e.modes : e.bySource!.find((s) => s.source === source)!.modes).referenceFree;
    for (const [row, source] of ROWS) {
      const line = README.split('\n').find((l) => l.startsWith(`| ${row} |`));
      expect(line, row).toBeDefined();
      const got = line!
        .split(' | ')
        .slice(2)
        .map((c) => c.replace(/\*\*/g, '').replace(/ \|$/, ''));
      expect(got, row).toEqual([...cells(point(a, source)), ...cells(point(b, source))]);
    }
  });

  it("docs/early-stop.md's per-source table (calibrate --by source --split none): each failing-side rate with its n and interval", () => {
    const doc = readFileSync(new URL('../../docs/early-stop.md', import.meta.url), 'utf8');
    const rows = ['| SWE-agent 0.x + gpt-4 | 75 / 646 |', '| CodeR + gpt-4 | 64 / 135 |'].map((start) => doc.split('\n').find((l) => l.startsWith(start)));
    for (const row of rows) {
      expect(row).toBeDefined();
      // failing stopped, then failing steps saved: `k / n (p % [lo, hi])`, p = k / n.
      const cells = [...row!.matchAll(/(\d+) \/ (\d+) \((\d+\.\d) % \[(\d+\.\d), (\d+\.\d)\]\)/g)];
      expect(cells, row).toHaveLength(2);
      for (const [, k, n, p, lo, hi] of cells) {
        expect(((100 * Number(k)) / Number(n)).toFixed(1)).toBe(p);
        expect(Number(lo)).toBeLessThanOrEqual(Number(p));
        expect(Number(hi)).toBeGreaterThanOrEqual(Number(p));
      }
    }
  });

  it("the README's blind-retry stop at 2 with its n and bound, as calibrate's blindRetry table gives it", () => {
    // The per-kind tables' runs, as calibrate builds them (src/cli/calibrate-runs.ts: reference-free totals).
    const runs = readScoredRuns('test/fixtures/early-stop-runs.jsonl.gz').map(({ run }) => ({ states: run.states, totals: run.totals.referenceFree, passed: run.passed }));
    const r = thresholdRow(runs, 'blindRetry', 2, DEFAULT_POLICY);
    const upper = `${(100 * r.passingUpper!).toFixed(1)} %`;
    expect(README.replace(/\s+/g, ' ')).toContain(
      `A blind-retry stop at 2 retries would have stopped ${r.passingStopped} of the ${r.passing} passing runs (${pct(r.passingRate)}, one-sided 95 % upper bound ${upper};`,
    );
  });
});
