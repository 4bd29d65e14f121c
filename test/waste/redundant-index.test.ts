/**
 * The redundant-step detector answers each state from indexes of the states since the last change; before, it
 * scanned them all back (quadratic: 4 sessions of 5,000 distinct `ls` steps held the server 0.9-1.2 s at `end`).
 * The scan is kept here as the reference: both must find the same steps on every real run.
 */
import { describe, expect, it } from 'vitest';
import type { LineRange, State } from '../../src/core/types.js';
import { changesAnything, REPEAT_EXEMPT_KINDS } from '../../src/core/signals/repeats.js';
import { findRedundantSteps, READS_LOOKED_BACK, repeats, type RedundantStep } from '../../src/core/waste/redundant.js';
import { corpusRuns, extraRuns, statesOf } from '../fixtures/corpus-runs.js';
import { st } from '../fixtures/make-state.js';

/** The detector as it was until stop 50: every earlier state since the last change, the most recent first. */
function scanned(states: readonly State[], retries: ReadonlySet<number>): RedundantStep[] {
  const out: RedundantStep[] = [];
  let since = 0;
  for (let i = 0; i < states.length; i++) {
    const s = states[i]!;
    if (changesAnything(s) || s.kind === 'finish') {
      since = i + 1;
      continue;
    }
    if (retries.has(s.t) || REPEAT_EXEMPT_KINDS.has(s.kind)) continue;
    for (let j = i - 1; j >= since; j--) {
      const e = states[j]!;
      if (e.stage === s.stage && !REPEAT_EXEMPT_KINDS.has(e.kind) && repeats(e, s)) {
        out.push({ t: s.t, of: e.t, tool: s.tool });
        break;
      }
    }
  }
  return out;
}

const read = (t: number, range: LineRange, extra: Partial<State> = {}): State => st(t, 'E', { kind: 'read', file: 'a.py', range, hash: `read ${range.join('-')}`, ...extra });

describe('redundant steps from indexes', () => {
  it('finds what the scan found on every real run (retries as the detector is given them: none, and every third step)', () => {
    let found = 0;
    for (const run of [...corpusRuns(), ...extraRuns()]) {
      const states = statesOf(run.steps);
      const some = new Set(states.filter((s) => s.t % 3 === 0).map((s) => s.t));
      for (const retries of [new Set<number>(), some]) {
        const fast = findRedundantSteps(states, retries);
        expect(fast, run.name).toEqual(scanned(states, retries));
        found += fast.length;
      }
    }
    expect(found).toBeGreaterThan(20); // the runs hold redundant steps (33): the comparison is not of empty lists
  });

  it("finds what the scan found when the states' t are not their indexes (shifted, one repeated): the indexes keep positions, the steps found keep t", () => {
    let found = 0;
    for (const run of corpusRuns().slice(0, 25)) {
      const states = statesOf(run.steps).map((s, i) => ({ ...s, t: i === 5 ? 4 + 100 : i + 100 }));
      const retries = new Set(states.filter((_, i) => i % 5 === 0).map((s) => s.t));
      for (const r of [new Set<number>(), retries]) {
        const fast = findRedundantSteps(states, r);
        expect(fast, run.name).toEqual(scanned(states, r));
        found += fast.length;
      }
    }
    expect(found).toBeGreaterThan(5);
  });

  it('takes the most recent of a same-action repeat and a covering read; a variant only by its lines; never a failed one', () => {
    const states = [
      read(0, [1, 100]),
      read(1, [1, 100], { failed: true }),
      read(2, [10, 20]),
      read(3, [1, 100], { variant: true }),
      read(4, [5, 200]),
      read(5, [1, 100]),
      read(6, [1, 100], { failed: true }),
    ];
    // 1 repeats 0 (failing itself does not matter); 2 lies in 0; 3 is a variant of 0's action (not a repeat of
    // it) and no other read covers it; 5 repeats 3, the most recent non-failed state of its action (the failed 1
    // is newer than 0, yet nothing repeats a failed state); 6 repeats 5.
    expect(findRedundantSteps(states, new Set())).toEqual(scanned(states, new Set()));
    expect(findRedundantSteps(states, new Set()).map((r) => [r.t, r.of])).toEqual([
      [1, 0],
      [2, 0],
      [5, 3],
      [6, 5],
    ]);
  });

  it('looks back over the last READS_LOOKED_BACK reads of a file: one past them is not compared', () => {
    const withBetween = (k: number): State[] => [read(0, [1, 1000]), ...Array.from({ length: k }, (_, i) => read(i + 1, [2000 + i, 2000 + i])), read(k + 1, [3, 4])];
    const within = withBetween(READS_LOOKED_BACK - 1);
    expect(findRedundantSteps(within, new Set()).map((r) => [r.t, r.of])).toEqual([[READS_LOOKED_BACK, 0]]);
    const past = withBetween(READS_LOOKED_BACK);
    expect(scanned(past, new Set()).map((r) => [r.t, r.of])).toEqual([[READS_LOOKED_BACK + 1, 0]]);
    expect(findRedundantSteps(past, new Set())).toEqual([]);
  });
});
