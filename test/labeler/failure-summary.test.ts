/**
 * The pytest summary check of `stepFailed` (`=== 1 failed, 3 passed in 0.2s ===`): read line by line instead of
 * with `/^=+ .*\b\d+ (failed|errors?)\b.* =+$/m`, which backtracked quadratically on a long line opening with `= `.
 * Its answers are the regex's: on every real corpus observation and on small generated lines.
 */
import { describe, expect, it } from 'vitest';
import { hasFailureSummary, stepFailed } from '../../src/core/state/failure.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

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
    const parts = ['=', '==', ' ', '1', '12', 'x', ' failed', ' error', ' errors', ' passed', ',', '\n', '\r\n', '\u2028', 'a1'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 20_000; i++) {
      let text = '';
      for (let n = next() % 12; n >= 0; n--) text += parts[next() % parts.length];
      expect(hasFailureSummary(text), JSON.stringify(text)).toBe(OLD.test(text));
    }
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
