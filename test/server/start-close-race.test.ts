/**
 * A connection that closes while its `start` waits on the store (the task's reference read from disk or Redis):
 * its close detached what it held then, which did not include the session being started, so that session stayed
 * held by a connection that was gone (never ended by the resume window, not reclaimable, counted open until the
 * idle timeout, 30 minutes by default, filling `totalSessions`). The close now detaches after every message the
 * connection sent before it is handled (`SessionRegistry.closed`), as app.ts does: the session comes out detached.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../src/server/connection.js';
import type { Session } from '../../src/server/session.js';
import { createMetrics } from '../../src/server/metrics.js';
import { resolveOptions } from '../../src/server/options.js';
import { SessionRegistry } from '../../src/server/session-registry.js';
import { handleFrame, type HandlerDeps } from '../../src/server/stream-handler.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { ASTROID, recordingSocket } from './helpers.js';

const RESUME_WINDOW_MS = 1_000;
let dir: string;
let registry: SessionRegistry;
let deps: HandlerDeps;
let connections: Map<number, Connection>;
/** Each `reference()` call waits until the test opens the gate. */
let gate: { open: () => void; wait: Promise<void> };
const newGate = () => {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  gate = { open, wait };
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'steplens-start-close-'));
  const store = await ReferenceStore.open({ dataDir: dir });
  const reference = store.reference.bind(store);
  store.reference = async (task: string) => {
    await gate.wait;
    return reference(task);
  };
  const options = resolveOptions({ resumeWindowMs: RESUME_WINDOW_MS, limits: { totalSessions: 2 } });
  connections = new Map();
  const metrics = createMetrics(store);
  const log = pino({ level: 'silent' });
  registry = new SessionRegistry({ store, analyzers: defaultAnalyzers(), metrics, log, options, connections });
  deps = { registry, metrics, log, options };
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What app.ts does with a frame (handled in order per connection) and when a socket closes. */
const send = (conn: Connection, m: Record<string, unknown>): void => conn.handle(() => handleFrame(deps, conn, Buffer.from(JSON.stringify(m)), false));
const close = (conn: Connection, s: { readyState: number }): void => {
  s.readyState = 3;
  registry.closed(conn);
  connections.delete(conn.id);
};
/** Waits until the registry holds `id` of the default tenant (its start was handled). */
async function started(id: string): Promise<Session> {
  for (let i = 0; i < 200; i++) {
    const s = registry.find('default', id);
    if (s !== undefined) return s;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`session ${id} never started`);
}

describe('a start whose connection closes while it waits on the store', () => {
  it('comes out detached: resumable for the window, then ended, and its slot freed', async () => {
    newGate();
    const sockets = [recordingSocket(), recordingSocket()];
    const conns = sockets.map((s, i) => new Connection(i + 1, s, 1 << 20));
    conns.forEach((c) => connections.set(c.id, c));
    conns.forEach((c, i) => send(c, { type: 'start', session: `orphan-${i}`, task: ASTROID.task }));
    conns.forEach((c, i) => close(c, sockets[i]!));
    gate.open();
    const orphans = [await started('orphan-0'), await started('orphan-1')];
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (const s of orphans) {
      expect(s.connection).toBeUndefined();
      expect(s.detachedAt).toBeGreaterThan(Date.now() - 5_000);
    }
    expect(registry.openCount()).toBe(2);

    // The server is full, but both sessions are detached: a newcomer reclaims the oldest one's slot.
    const live = new Connection(9, recordingSocket(), 1 << 20);
    connections.set(9, live);
    const newcomer = await registry.start({ type: 'start', session: 'newcomer', task: ASTROID.task }, live);
    expect(newcomer.ok).toBe(true);
    expect(orphans[0]!.final?.reason).toBe('not_resumed');

    // Past the resume window the sweep ends and frees the other one.
    await registry.sweep(Date.now() + RESUME_WINDOW_MS + 1);
    expect(orphans[1]!.ended).toBe(true);
    expect(registry.openCount()).toBe(1);
  });

  it('a start on an open connection is held by it as before', async () => {
    newGate();
    gate.open();
    const conn = new Connection(20, recordingSocket(), 1 << 20);
    connections.set(20, conn);
    await registry.endAll();
    const r = await registry.start({ type: 'start', session: 'held', task: ASTROID.task }, conn);
    expect(r.ok && r.value.connection).toBe(20);
    expect(r.ok && r.value.detachedAt).toBeUndefined();
    expect(conn.openSessions.size).toBe(1);
  });
});
