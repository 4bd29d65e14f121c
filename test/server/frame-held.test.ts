/**
 * A connection has at most FRAMES_PER_TURN frames handled in a turn of the event loop (src/server/frame-batch.ts).
 * ws hands over every frame of a socket read at once, so pausing the socket alone left the rest of the read in hand
 * (a 64 KB read is ~700 tiny steps) handled in the same turn: 20,000 tiny steps sent at once still held everyone's
 * loop 0.2-0.5 s. The rest is now held, handed over FRAMES_PER_TURN a turn in arrival order, the socket paused
 * until none is left; a close hands over everything held first.
 */
import { describe, expect, it } from 'vitest';
import type { Connection } from '../../src/server/connection.js';
import { FRAMES_PER_TURN, FrameBatch } from '../../src/server/frame-batch.js';

class FakeConnection {
  paused = false;
  pauses = 0;
  resumes = 0;
  readonly principal: { tenant: string; role: 'agent' };
  constructor(readonly id: number) {
    this.principal = { tenant: `t${id}`, role: 'agent' };
  }
  pauseReads(): void {
    this.paused = true;
    this.pauses++;
  }
  resumeReads(): void {
    this.paused = false;
    this.resumes++;
  }
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function recorder(): { batch: FrameBatch; seen: string[]; perTurn: () => Map<number, number> } {
  const seen: string[] = [];
  let counts = new Map<number, number>();
  const batch = new FrameBatch(
    (conn, raw) => {
      const id = (conn as unknown as FakeConnection).id;
      counts.set(id, (counts.get(id) ?? 0) + 1);
      seen.push(`${id}:${raw.toString()}`);
    },
    () => undefined,
  );
  const perTurn = (): Map<number, number> => {
    const out = counts;
    counts = new Map();
    return out;
  };
  return { batch, seen, perTurn };
}

describe('FrameBatch pacing', () => {
  it('hands over a big read FRAMES_PER_TURN frames a turn, in order, the socket paused until the last', async () => {
    const { batch, seen, perTurn } = recorder();
    const a = new FakeConnection(1);
    const b = new FakeConnection(2);
    const total = 5 * FRAMES_PER_TURN + 7;
    for (let i = 0; i < total; i++) batch.add(a as unknown as Connection, Buffer.from(`a${i}`), false);
    batch.add(b as unknown as Connection, Buffer.from('b0'), false);
    expect(a.paused).toBe(true);
    const turns: number[] = [];
    while (batch.size > 0) {
      await turn();
      turns.push(perTurn().get(1) ?? 0);
      // Resumed once the last share is handed over (pending), not before.
      if (batch.size > FRAMES_PER_TURN) expect(a.paused).toBe(true);
    }
    expect(turns.every((n) => n <= FRAMES_PER_TURN)).toBe(true);
    expect(turns.reduce((x, y) => x + y, 0)).toBe(total);
    expect(turns.length).toBeGreaterThanOrEqual(6);
    // The other connection's frame was handled in the first turn, not after the burst.
    expect(seen.indexOf('2:b0')).toBeLessThan(FRAMES_PER_TURN + 1);
    expect(seen.filter((s) => s.startsWith('1:'))).toEqual(Array.from({ length: total }, (_, i) => `1:a${i}`));
    expect(a.paused).toBe(false);
    expect(b.pauses).toBe(0);
  });

  it('frames that arrive while some are held queue behind them', async () => {
    const { batch, seen } = recorder();
    const a = new FakeConnection(1);
    for (let i = 0; i < 2 * FRAMES_PER_TURN; i++) batch.add(a as unknown as Connection, Buffer.from(`a${i}`), false);
    await turn();
    // Still paused: a read already in hand (ws) can add more before the socket stops.
    batch.add(a as unknown as Connection, Buffer.from('late'), false);
    while (batch.size > 0) await turn();
    expect(seen.at(-1)).toBe('1:late');
    expect(seen).toHaveLength(2 * FRAMES_PER_TURN + 1);
  });

  it("a quiet connection's frame of a later turn is handled before the held connection's share of it", async () => {
    const { batch, seen } = recorder();
    const a = new FakeConnection(1);
    const b = new FakeConnection(2);
    for (let i = 0; i < 4 * FRAMES_PER_TURN; i++) batch.add(a as unknown as Connection, Buffer.from(`a${i}`), false);
    await turn();
    expect(seen).toHaveLength(FRAMES_PER_TURN);
    batch.add(b as unknown as Connection, Buffer.from('b0'), false);
    await turn();
    expect(seen[FRAMES_PER_TURN]).toBe('2:b0');
    expect(seen).toHaveLength(2 * FRAMES_PER_TURN + 1);
  });

  it('drain(conn) hands over the held frames of a closed connection at their pace, then runs its close', async () => {
    const { batch, seen } = recorder();
    const a = new FakeConnection(1);
    const b = new FakeConnection(2);
    for (let i = 0; i < 3 * FRAMES_PER_TURN; i++) batch.add(a as unknown as Connection, Buffer.from(`a${i}`), false);
    for (let i = 0; i < 2 * FRAMES_PER_TURN; i++) batch.add(b as unknown as Connection, Buffer.from(`b${i}`), false);
    let closed = false;
    batch.drain(a as unknown as Connection, () => (closed = true));
    // Its frames of this turn are handled; those held follow in the next turns, and only then is it closed.
    expect(seen.filter((s) => s.startsWith('1:'))).toHaveLength(FRAMES_PER_TURN);
    expect(closed).toBe(false);
    while (!closed) await turn();
    expect(seen.filter((s) => s.startsWith('1:'))).toEqual(Array.from({ length: 3 * FRAMES_PER_TURN }, (_, i) => `1:a${i}`));
    let none = false;
    batch.drain(new FakeConnection(3) as unknown as Connection, () => (none = true));
    expect(none).toBe(true);
    batch.drainAll();
    expect(seen).toHaveLength(5 * FRAMES_PER_TURN);
    expect(batch.size).toBe(0);
  });

  it('drainAll() hands over every frame at once (the server closing) and runs the closes waiting for theirs', () => {
    const { batch, seen } = recorder();
    const a = new FakeConnection(1);
    for (let i = 0; i < 3 * FRAMES_PER_TURN; i++) batch.add(a as unknown as Connection, Buffer.from(`a${i}`), false);
    let closed = false;
    batch.drain(a as unknown as Connection, () => (closed = true));
    batch.drainAll();
    expect(seen).toHaveLength(3 * FRAMES_PER_TURN);
    expect(closed).toBe(true);
  });
});
