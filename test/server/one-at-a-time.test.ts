/** Large reads run one after another, each from a turn of its own, in turns by tenant (T115). */
import { describe, expect, it } from 'vitest';
import { OneAtATime } from '../../src/server/one-at-a-time.js';
import { loopTurnsDuring } from '../loop-turns.js';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('OneAtATime', () => {
  it('runs the works in arrival order, never two at once, each starting in a turn of its own', async () => {
    const queue = new OneAtATime();
    const events: string[] = [];
    let running = 0;
    let most = 0;
    const work = (i: number) => async (): Promise<number> => {
      running++;
      most = Math.max(most, running);
      events.push(`start ${i}`);
      await nextTurn(); // a work that spans turns (a view built a slice a turn)
      await nextTurn();
      events.push(`end ${i}`);
      running--;
      return i;
    };
    const { value, turns } = await loopTurnsDuring(() => Promise.all([0, 1, 2, 3].map((i) => queue.run(work(i)))));
    expect(value).toEqual([0, 1, 2, 3]);
    expect(most).toBe(1);
    expect(events).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
    // Each work: a turn to start and two of its own.
    expect(turns).toBeGreaterThanOrEqual(4 * 3 - 1);
    expect(queue.queued).toBe(0);
  });

  it('passes a failure to its caller and goes on with the next work', async () => {
    const queue = new OneAtATime();
    const failed = queue.run(() => {
      throw new Error('view failed');
    });
    const next = queue.run(() => 'next');
    await expect(failed).rejects.toThrow('view failed');
    await expect(next).resolves.toBe('next');
    expect(queue.queued).toBe(0);
  });

  it("runs another tenant's work next, not behind a tenant's backlog", async () => {
    const queue = new OneAtATime();
    const started: string[] = [];
    const work = (name: string) => async (): Promise<void> => {
      started.push(name);
      await nextTurn();
    };
    // Bob keeps 16 step views queued (VIEWS_PER_TENANT); alice asks for one while the first is built.
    const bob = Array.from({ length: 16 }, (_, i) => queue.run(work(`bob ${i}`), 'bob'));
    const alice = queue.run(work('alice'), 'alice');
    await Promise.all([...bob, alice]);
    expect(started.indexOf('alice')).toBe(1);
    expect(started.filter((s) => s.startsWith('bob'))).toEqual(Array.from({ length: 16 }, (_, i) => `bob ${i}`));
    expect(queue.queued).toBe(0);
  });
});
