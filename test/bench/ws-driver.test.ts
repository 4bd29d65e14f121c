import { describe, expect, it } from 'vitest';
import { shuffledRanks } from '../../bench/ws-driver.js';

describe('ws-driver stagger order', () => {
  it('ranks every slot once, the same way every run', () => {
    for (const n of [1, 2, 7, 20, 1000]) {
      const r = shuffledRanks(n);
      expect(new Set(r).size).toBe(n);
      expect(Math.min(...r)).toBe(0);
      expect(Math.max(...r)).toBe(n - 1);
      expect([...shuffledRanks(n)]).toEqual([...r]);
    }
  });

  it('spreads the sessions at the last step over the round-robin (the 1,000-session paced shape)', () => {
    const slots = 1000;
    const steps = 79;
    const ranks = shuffledRanks(slots);
    const last = (order: (g: number) => number): number[] => Array.from({ length: slots }, (_, g) => g).filter((g) => Math.floor((order(g) * (steps - 1)) / slots) === steps - 2);
    // By slot order the ~13 sessions at the last step are neighbours: they end back to back.
    const bySlot = last((g) => g);
    expect(Math.max(...bySlot) - Math.min(...bySlot)).toBe(bySlot.length - 1);
    // Shuffled, they sit all over the round, no two side by side.
    const spread = last((g) => ranks[g]!);
    expect(spread.length).toBe(bySlot.length);
    expect(Math.max(...spread) - Math.min(...spread)).toBeGreaterThan(slots / 2);
    expect(spread.some((g, i) => i > 0 && g - (spread[i - 1] ?? -2) === 1)).toBe(false);
  });
});
