/**
 * A count detector reads an episode's steps only when a level is crossed. A regression loop's step list is its cycles
 * flattened, so reading it at every new cycle made an edit → failing test loop quadratic: 140 ms for steps 1-1,000 of
 * a session, 459 ms for steps 9,001-10,000.
 */
import { describe, expect, it } from 'vitest';
import type { Count, Counter } from '../../src/core/early-stop/counters.js';
import { countDetector } from '../../src/core/early-stop/detectors.js';
import { st } from '../fixtures/make-state.js';

describe('count detectors', () => {
  it("read an episode's steps once per crossed level, not at every count", () => {
    let reads = 0;
    let n = 0;
    const counter: Counter = {
      add: (): readonly Count[] => [{ n: ++n, steps: () => (reads++, [1, 2, 3]), message: (sev) => `${n} (${sev})` }],
    };
    const detector = countDetector('regression_loop', { warn: 3, stop: 5 }, counter);
    const fired = Array.from({ length: 1000 }, (_, t) => detector.add(st(t, 'V'), 100)).flatMap((s, t) => s.map((x) => [t, x.severity, x.steps]));
    expect(fired).toEqual([
      [2, 'warn', [1, 2, 3]],
      [4, 'stop', [1, 2, 3]],
    ]);
    expect(reads).toBe(2);
  });
});
