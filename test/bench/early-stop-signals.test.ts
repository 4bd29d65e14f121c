/**
 * audit30: bench/early-stop/signals (docs/early-stop.md's table "Stop signals: leave one source out") printed the
 * held-out passing and failing runs stopped as bare counts and the failing steps saved as a bare share. Each now
 * carries its interval: the passing side its one-sided 95 % Clopper-Pearson upper bound (as calibrate's), the
 * failing side a Wilson 95 % interval, the steps saved a bootstrap over the failing runs ([-] under 5 of them).
 * Run on the sample runs (needs `npm run build`, as every dist/bench check).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { clopperPearsonUpper } from '../../src/core/stats/binomial.js';
import { wilsonInterval } from '../../src/core/stats/interval.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('bench/early-stop/signals on the sample runs', () => {
  it('prints each held-out count with its n and interval', () => {
    const out = execFileSync(process.execPath, ['dist/bench/early-stop/signals.js', '--outcomes', 'examples/runs/outcomes.csv', 'examples/runs'], { cwd: ROOT, encoding: 'utf8' });
    const lines = out.split('\n');
    expect(lines.find((l) => l.startsWith('| signal |'))).toContain(': passing stopped (95 % upper) | failing stopped [Wilson 95 %] | failing steps saved [95 %, failing runs resampled] |');
    const rows = lines.filter((l) => l.startsWith('| ') && !l.startsWith('| signal') && !l.startsWith('| ---'));
    expect(rows.length).toBeGreaterThan(10);
    const f1 = (x: number) => (100 * x).toFixed(1);
    for (const row of rows) {
      const [passing, failing, saved] = row.split(' | ').slice(2, 5);
      const p = /^(\d+) \/ (\d+) \(≤ ([\d.]+) %\)$/.exec(passing!);
      expect(p, `${row}: passing`).not.toBeNull();
      expect(p![3]).toBe(f1(clopperPearsonUpper(Number(p![1]), Number(p![2]))));
      const f = /^(\d+) \/ (\d+) \(([\d.]+) % \[([\d.]+), ([\d.]+)\]\)$/.exec(failing!);
      expect(f, `${row}: failing`).not.toBeNull();
      const w = wilsonInterval(Number(f![1]), Number(f![2]));
      expect([f![4], f![5]]).toEqual([f1(w.lo), f1(w.hi)]);
      // The sample runs have 3 failing runs: too few to resample, so no interval, and it says so.
      expect(saved, `${row}: steps saved`).toMatch(/^[\d.]+ % \[-\]$/);
    }
  });
});
