/**
 * `anyCrossed` lets a count detector skip the lists of a count that crosses no level: it must answer exactly
 * whether `crossed` (the list the signals are built from) has a severity, for every pair of levels and counts.
 */
import { describe, expect, it } from 'vitest';
import { anyCrossed, crossed } from '../../src/core/early-stop/levels.js';

describe('anyCrossed', () => {
  it('is true exactly when crossed lists a severity (warn and stop null or 0-6, counts before and after 0-8)', () => {
    const levels = [null, 0, 1, 2, 3, 4, 5, 6];
    let crossings = 0;
    for (const warn of levels)
      for (const stop of levels)
        for (let before = 0; before <= 8; before++)
          for (let after = before; after <= 8; after++) {
            const l = { warn, stop };
            const list = crossed(l, before, after);
            expect(anyCrossed(l, before, after), JSON.stringify({ warn, stop, before, after })).toBe(list.length > 0);
            if (list.length > 0) crossings += 1;
          }
    expect(crossings).toBeGreaterThan(100);
  });
});
