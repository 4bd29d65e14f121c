/** The turn gate lets one waiter through a turn of the event loop. */
import { describe, expect, it } from 'vitest';
import { TurnGate } from '../../src/server/turn-gate.js';
import { loopTurnsDuring } from '../loop-turns.js';

describe('TurnGate', () => {
  it('lets the waiters through one a turn, in arrival order', async () => {
    const gate = new TurnGate();
    const order: number[] = [];
    const { turns } = await loopTurnsDuring(async () => {
      const waiters = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => gate.turn().then(() => order.push(i)));
      expect(gate.queued).toBe(8);
      await Promise.all(waiters);
    });
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // Eight waiters took at least seven turns (let through all at once, they would take one).
    expect(turns).toBeGreaterThanOrEqual(7);
    expect(gate.queued).toBe(0);
  });

  it('starts again after it ran dry', async () => {
    const gate = new TurnGate();
    await gate.turn();
    await new Promise((resolve) => setImmediate(resolve));
    await gate.turn();
    expect(gate.queued).toBe(0);
  });
});
