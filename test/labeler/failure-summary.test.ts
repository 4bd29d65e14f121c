/**
 * The pytest summary check of `stepFailed` (`=== 1 failed, 3 passed in 0.2s ===`): read line by line instead of
 * with `/^=+ .*\b\d+ (failed|errors?)\b.* =+$/m`, which backtracked quadratically on a long line opening with `= `.
 * Its answers are the regex's: on every real corpus observation and on small generated lines.
 */
import { describe, expect, it } from 'vitest';
import { hasFailureSummary, stepFailed } from '../../src/core/state/failure.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';
import { generated } from './helpers.js';

const OLD = /^=+ .*\b\d+ (failed|errors?)\b.* =+$/m;

const shell = (observation: string) => ({ t: 0, tool: 'bash', action: { kind: 'shell', command: 'cat results.log' } as const, observation });

describe('pytest failure summary lines', () => {
  it('agrees with the old regex on every corpus observation', () => {
    let compared = 0;
    let hits = 0;
    for (const run of corpusRuns())
      for (const step of run.steps) {
        const obs = step.observation ?? '';
        const want = OLD.test(obs);
        expect(hasFailureSummary(obs), `${run.name} t=${step.t}`).toBe(want);
        compared++;
        if (want) hits++;
      }
    expect(compared).toBeGreaterThan(1000);
    expect(hits).toBeGreaterThan(0);
  });

  it('agrees with the old regex on generated lines', () => {
    // Whole summary pieces too, so that about one text in thirteen is a summary (without them: none of 20,000).
    const parts = ['=', '==', ' ', '1', '12', 'x', ' failed', ' error', ' errors', ' passed', ',', '\n', '\r\n', '\u2028', 'a1', '= ', ' =', '= 1 failed', ' 2 errors =', '=== 3 failed, 1 passed ==='];
    let hits = 0;
    for (const text of generated(parts, 20_000)) {
      const want = OLD.test(text);
      expect(hasFailureSummary(text), JSON.stringify(text)).toBe(want);
      if (want) hits++;
    }
    expect(hits).toBeGreaterThan(1000);
    expect(hasFailureSummary('==== 1 failed, 3 passed in 0.2s ====')).toBe(true);
    expect(hasFailureSummary('= 2 errors =')).toBe(true);
    expect(hasFailureSummary('==== 4 passed in 0.2s ====')).toBe(false);
    expect(hasFailureSummary('=1 failed =')).toBe(false);
  });

  // A guard against catastrophic backtracking, not a speed test: the old regex took ~7 s on this 144 KB line
  // (it grows with the square of the length) and a server scoring the step answered nothing meanwhile; linear
  // code takes milliseconds, so the generous bound only fails if the quadratic scan comes back.
  it('a long unclosed `= N failed ...` line is read in linear time', () => {
    const obs = '= ' + '1 failed '.repeat(16_000);
    const start = performance.now();
    expect(stepFailed(shell(obs))).toBe(false);
    expect(performance.now() - start).toBeLessThan(500);
    expect(stepFailed(shell(obs + '=='))).toBe(true);
  });
});
