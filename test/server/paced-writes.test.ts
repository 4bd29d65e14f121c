/**
 * PacedWrites: large bytes to many responses a piece at a time, a bounded number of bytes a turn, a response's next
 * piece only once it took the last one, pieces that are views of the same bytes.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { PacedWrites } from '../../src/server/paced-writes.js';
import { nextTurn, TurnCounter } from './live-fixture.js';

/** A response taking what it is given (`write` true) unless `full`, recording each write with its turn. */
function target(turns: TurnCounter) {
  const writes: Array<{ turn: number; bytes: Buffer }> = [];
  const t = Object.assign(new EventEmitter(), {
    destroyed: false,
    writableEnded: false,
    full: false,
    write: (bytes: Buffer) => {
      writes.push({ turn: turns.turn, bytes });
      return !t.full;
    },
  });
  return { t, writes, text: () => Buffer.concat(writes.map((w) => w.bytes)).toString() };
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !cond(); i++) await nextTurn();
  expect(cond()).toBe(true);
}

describe('PacedWrites', () => {
  it('hands at most a turn’s bytes to all responses together, each in turn, the same bytes to each', async () => {
    const turns = new TurnCounter();
    const paced = new PacedWrites(4, 8); // pieces of 4 bytes, 8 a turn
    const bytes = Buffer.from('abcdefghijkl'); // 3 pieces
    const targets = [target(turns), target(turns), target(turns)];
    const done: number[] = [];
    targets.forEach((x, i) => paced.start(x.t, bytes, () => done.push(i)));
    expect(targets.flatMap((x) => x.writes)).toEqual([]); // nothing in the turn it was asked
    await until(() => done.length === 3);
    turns.stop();
    const all = targets.flatMap((x) => x.writes);
    const perTurn = new Map<number, number>();
    for (const w of all) perTurn.set(w.turn, (perTurn.get(w.turn) ?? 0) + w.bytes.length);
    expect(Math.max(...perTurn.values())).toBe(8);
    expect(perTurn.size).toBe(5); // 9 pieces, 2 a turn
    for (const x of targets) expect(x.text()).toBe('abcdefghijkl');
    // Each in turn: the third response's first piece comes before the first response's second.
    expect(targets[2]!.writes[0]!.turn).toBeLessThanOrEqual(targets[0]!.writes[1]!.turn);
    expect(new Set(all.map((w) => w.bytes.buffer))).toEqual(new Set([bytes.buffer]));
    expect(done.sort()).toEqual([0, 1, 2]);
    expect(paced.size).toBe(0);
  });

  it('gives a response that did not take its last piece no other until it drains', async () => {
    const turns = new TurnCounter();
    const paced = new PacedWrites(4, 1024);
    const slow = target(turns);
    const fast = target(turns);
    slow.t.full = true;
    let finished = false;
    paced.start(slow.t, Buffer.from('abcdefghijkl'), () => (finished = true));
    paced.start(fast.t, Buffer.from('0123456789'), () => undefined);
    for (let i = 0; i < 5; i++) await nextTurn();
    expect(slow.text()).toBe('abcd');
    expect(fast.text()).toBe('0123456789');
    slow.t.full = false;
    slow.t.emit('drain');
    await until(() => finished);
    turns.stop();
    expect(slow.text()).toBe('abcdefghijkl');
    expect(slow.t.listenerCount('drain')).toBe(0);
  });

  it('stops a cancelled write, one whose response is destroyed, and every write on close, without calling done', async () => {
    const turns = new TurnCounter();
    const paced = new PacedWrites(4, 1024);
    const [a, b, c] = [target(turns), target(turns), target(turns)];
    a.t.full = true;
    let done = 0;
    const wa = paced.start(a.t, Buffer.from('abcdefgh'), () => done++);
    paced.start(b.t, Buffer.from('abcdefgh'), () => done++);
    await nextTurn();
    await nextTurn();
    expect([a.text(), b.text()]).toEqual(['abcd', 'abcdefgh']);
    paced.cancel(wa);
    expect(a.t.listenerCount('drain')).toBe(0);
    a.t.emit('drain');
    c.t.destroyed = true;
    paced.start(c.t, Buffer.from('abcdefgh'), () => done++);
    const d = target(turns);
    d.t.full = true;
    paced.start(d.t, Buffer.from('abcdefgh'), () => done++);
    for (let i = 0; i < 5; i++) await nextTurn();
    expect([a.text(), c.text(), d.text()]).toEqual(['abcd', '', 'abcd']);
    expect(paced.size).toBe(1); // d's, waiting for its drain
    paced.close();
    d.t.full = false;
    d.t.emit('drain');
    for (let i = 0; i < 5; i++) await nextTurn();
    turns.stop();
    expect(d.text()).toBe('abcd');
    expect(done).toBe(1); // b's only
    expect(paced.size).toBe(0);
  });
});
