/**
 * audit25 ("rates with their denominators"): `calibrate`'s single-kind tables printed the passing side as
 * `2 (40.0%, ≤81.1%)`, a count and a rate with no n, beside the failing side's `1/3 (33.3% [6.1%, 79.2%])` (audit24).
 * Each row now carries `passing` (--json) and prints `stopped/passing (rate, ≤upper)`.
 */
import { describe, expect, it } from 'vitest';
import { cliShared } from '../cli/run-cli.js';

const RUNS = 'test/fixtures/early-stop-runs.jsonl.gz';
const pct = (x: number | null) => (x === null ? '-' : `${(100 * x).toFixed(1)}%`);

interface Row {
  threshold: number;
  passingStopped: number;
  passing: number;
  passingRate: number | null;
  passingUpper: number | null;
}

describe('calibrate: the single-kind tables give the passing side its n', () => {
  it('prints every row as stopped/passing (rate, ≤upper), the n in --json too', async () => {
    const [text, json] = await Promise.all([cliShared('calibrate', '--runs', RUNS, '--split', 'none'), cliShared('calibrate', '--runs', RUNS, '--split', 'none', '--json')]);
    expect(text.code).toBe(0);
    const doc = JSON.parse(json.stdout) as { runs: { passing: number }; kinds: Record<string, { rows: Row[] }> };
    const kinds = Object.entries(doc.kinds);
    expect(kinds.length).toBe(6);
    for (const [kind, k] of kinds) {
      const table = text.stdout.slice(text.stdout.indexOf(`${kind}: `));
      for (const r of k.rows) {
        expect(r.passing).toBe(doc.runs.passing);
        expect(r.passingRate).toBeCloseTo(r.passingStopped / r.passing, 12);
        expect(table).toMatch(new RegExp(`\\n +${r.threshold}  ${r.passingStopped}/${r.passing} \\(${pct(r.passingRate).replace('.', '\\.')}, ≤${pct(r.passingUpper).replace('.', '\\.')}\\) `));
      }
    }
  });
});
