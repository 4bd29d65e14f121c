/**
 * `calibrate` reads the written policy as a predictor of failure. A policy that stops no run (or every run) tells no
 * run from another: its line says so, with no interval (it once printed `0.500 [0.500, 0.500]`, a zero-width interval
 * reading as certainty); a policy that stops some runs gets its AUROCs with their intervals.
 */
import { describe, expect, it } from 'vitest';
import { stopSeparationLines } from '../../src/cli/calibrate-policy-text.js';
import { separation } from '../../src/core/stats/separation.js';

const runs = Array.from({ length: 40 }, (_, i) => ({ source: `s${i % 2}`, task: `t${i % 10}`, pass: i % 4 === 0, score: i % 3 === 0 ? 0 : 1 }));
const sep = separation(runs, { unit: 'task' });
const counts = (passingStopped: number, failingStopped: number) => ({ passing: 10, failing: 30, passingStopped, failingStopped });

describe('the written policy as a predictor', () => {
  it('stops no run: plainly 0.5 by construction, no interval', () => {
    const lines = stopSeparationLines({ referenceFree: sep, reference: sep }, { referenceFree: counts(0, 0), reference: counts(10, 30) });
    expect(lines[0]).toBe('  reference-free: stops no run (0/10 passing, 0/30 failing): it predicts the same for every run, so its AUROC is 0.5 by construction (no interval: nothing is measured)');
    expect(lines[1]).toMatch(/^ {2}with references: stops every run \(10\/10 passing, 30\/30 failing\)/);
  });

  it('stops some runs: AUROCs with their intervals', () => {
    const lines = stopSeparationLines({ referenceFree: sep, reference: sep }, { referenceFree: counts(4, 10), reference: counts(4, 10) });
    expect(lines[0]).toMatch(/^ {2}reference-free: AUROC of "not stopped" for passing vs failing runs: within source \d\.\d{3} (\[\d\.\d{3}, \d\.\d{3}\]|)/);
    expect(lines[0]).not.toContain('by construction');
  });

  it('counts one pair and one task in the singular (audit19: "(1 pairs, 1 tasks)")', () => {
    // Task t0 alone holds a passing and a failing run of one source.
    const one = separation(
      [
        { source: 's', task: 't0', pass: true, score: 1 },
        { source: 's', task: 't0', pass: false, score: 0 },
        { source: 's', task: 't1', pass: true, score: 1 },
        { source: 's', task: 't2', pass: false, score: 0 },
      ],
      { unit: 'task' },
    );
    const lines = stopSeparationLines({ referenceFree: one, reference: one }, { referenceFree: counts(1, 1), reference: counts(1, 1) });
    expect(lines[0]).toContain(' (1 pair, 1 task); pooled ');
  });
});
