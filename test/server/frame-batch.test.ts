/**
 * Frames of one event-loop turn are handled together after the turn's reads (src/server/frame-batch.ts): in the
 * order they arrived, never before the turn ends (or at once on `flush()`, which a connection's close calls first),
 * and a frame whose handler throws does not stop the others. Through a real socket, a burst sent just before a
 * close is handled whole.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Step } from '../../src/core/types.js';
import type { Connection } from '../../src/server/connection.js';
import { FrameBatch, MAX_BATCH } from '../../src/server/frame-batch.js';
import { useCpuClock } from '../cpu-clock.js';
import { ASTROID, Client, readSteps, removeDir, startApp, tempDir, type Running } from './helpers.js';

const connA = { id: 1, principal: { tenant: 'a', role: 'agent' } } as unknown as Connection;
const connB = { id: 2, principal: { tenant: 'b', role: 'agent' } } as unknown as Connection;
const frame = (text: string): Buffer => Buffer.from(text);

/**
 * The batch paces a tenant by the time its frames take a turn (TENANT_MS_PER_TURN, frame-time.test.ts): on a slowed
 * machine a stall inside a frame's handling held the next ones for a turn. These tests count CPU time instead.
 */
const onCpuClock = (): void => {
  beforeEach(() => void useCpuClock());
  afterEach(() => void vi.restoreAllMocks());
};

describe('FrameBatch', () => {
  onCpuClock();
  it('handles the frames of a turn after it, in arrival order, across connections', async () => {
    const seen: string[] = [];
    const batch = new FrameBatch(
      (conn, raw) => seen.push(`${(conn as unknown as { id: number }).id}:${raw.toString()}`),
      () => undefined,
    );
    batch.add(connA, frame('a1'), false);
    batch.add(connB, frame('b1'), false);
    batch.add(connA, frame('a2'), false);
    expect(seen).toEqual([]);
    expect(batch.size).toBe(3);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['1:a1', '2:b1', '1:a2']);
    expect(batch.size).toBe(0);
    batch.add(connB, frame('b2'), false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['1:a1', '2:b1', '1:a2', '2:b2']);
  });

  it('flush() handles what is pending at once, and the scheduled turn then finds nothing', async () => {
    const seen: string[] = [];
    const batch = new FrameBatch(
      (_conn, raw) => seen.push(raw.toString()),
      () => undefined,
    );
    batch.add(connA, frame('x'), false);
    batch.add(connA, frame('y'), false);
    batch.flush();
    expect(seen).toEqual(['x', 'y']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['x', 'y']);
  });

  it('a frame whose handler throws is reported and the rest of the batch is still handled', async () => {
    const seen: string[] = [];
    const errors: unknown[] = [];
    const batch = new FrameBatch(
      (_conn, raw) => {
        if (raw.toString() === 'bad') throw new Error('handler bug');
        seen.push(raw.toString());
      },
      (error) => errors.push(error),
    );
    for (const t of ['ok1', 'bad', 'ok2']) batch.add(connA, frame(t), false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['ok1', 'ok2']);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('handler bug');
  });
});

describe('a burst of frames sent just before a close', () => {
  let steps: Step[];
  let dir: string;
  let srv: Running;
  beforeAll(async () => {
    steps = (await readSteps(ASTROID.passA)).slice(0, 5);
    dir = await tempDir();
    srv = await startApp({ dataDir: dir });
  });
  afterAll(async () => {
    await srv.app.close();
    await removeDir(dir);
  });

  it('is handled whole: a session started, stepped and ended in one burst, then the socket closed, is ended with every step', async () => {
    const c = await Client.connect(srv.wsUrl);
    c.send({ type: 'start', session: 'burst', task: ASTROID.task });
    steps.forEach((step, seq) => c.send({ type: 'step', session: 'burst', seq, step }));
    c.send({ type: 'end', session: 'burst' });
    c.close();
    await c.whenClosed();
    let doc: { state?: string; steps?: number } = {};
    for (let i = 0; i < 50 && doc.state !== 'ended'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      doc = (await (await fetch(`${srv.url}/v1/sessions/burst`)).json()) as typeof doc;
    }
    expect(doc).toMatchObject({ state: 'ended', steps: 5 });
  });
});

describe('FrameBatch, bounded', () => {
  onCpuClock();
  it('handles a batch as soon as it holds MAX_BATCH frames, and the rest at the end of the turn', async () => {
    const seen: string[] = [];
    const batch = new FrameBatch(
      (_conn, raw) => seen.push(raw.toString()),
      () => undefined,
    );
    for (let i = 0; i < MAX_BATCH - 1; i++) batch.add(connA, frame(`f${i}`), false);
    expect(seen).toHaveLength(0);
    batch.add(connA, frame(`f${MAX_BATCH - 1}`), false);
    expect(seen).toHaveLength(MAX_BATCH);
    batch.add(connA, frame('late'), false);
    expect(seen).toHaveLength(MAX_BATCH);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([...Array.from({ length: MAX_BATCH }, (_, i) => `f${i}`), 'late']);
    // The next turn schedules again.
    batch.add(connB, frame('next'), false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen.at(-1)).toBe('next');
  });
});
