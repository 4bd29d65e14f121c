/**
 * A connection's open-session count (the `sessionsPerConnection` limit, checked at every start and resume) walks
 * only the sessions that were open when they came: a long-lived connection that ran thousands of sessions keeps
 * the ended ones for the resume window, and walking them all made every start O(sessions ended in the window).
 * The count itself is unchanged: ended sessions do not count, a session resumed elsewhere leaves its old connection.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { Connection } from '../../src/server/connection.js';
import { createMetrics } from '../../src/server/metrics.js';
import { resolveOptions } from '../../src/server/options.js';
import { SessionRegistry } from '../../src/server/session-registry.js';
import { handleFrame, type HandlerDeps } from '../../src/server/stream-handler.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { ASTROID, readSteps, recordingSocket } from './helpers.js';

const sent: Array<Record<string, unknown>> = [];
const sink = (): WebSocket => recordingSocket(sent);

let dir: string;
let deps: HandlerDeps;
let connections: Map<number, Connection>;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'steplens-open-'));
  const store = await ReferenceStore.open({ dataDir: dir });
  const options = resolveOptions({ limits: { sessionsPerConnection: 2, totalSessions: 100, maxEndedSessions: 1000 } });
  connections = new Map();
  const metrics = createMetrics(store);
  const log = pino({ level: 'silent' });
  deps = { registry: new SessionRegistry({ store, analyzers: defaultAnalyzers(), metrics, log, options, connections }), metrics, log, options };
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const frame = async (conn: Connection, m: Record<string, unknown>): Promise<void> => await handleFrame(deps, conn, Buffer.from(JSON.stringify(m)), false);
const last = (): Record<string, unknown> => sent[sent.length - 1]!;

describe("a connection's open sessions", () => {
  it('count only open sessions, and ended ones leave the walked set', async () => {
    const step = (await readSteps(ASTROID.fail))[0];
    const a = new Connection(1, sink(), 1 << 30);
    connections.set(1, a);
    for (let i = 0; i < 50; i++) {
      await frame(a, { type: 'start', session: `s${i}`, task: ASTROID.task });
      await frame(a, { type: 'step', session: `s${i}`, seq: 0, step });
      await frame(a, { type: 'end', session: `s${i}` });
      expect(last()).toMatchObject({ type: 'final', session: `s${i}` });
    }
    // 50 ended sessions held for resume; none is walked when counting.
    expect(a.sessions.size).toBe(50);
    expect(a.openSessions.size).toBe(0);
    await frame(a, { type: 'start', session: 'x', task: ASTROID.task });
    await frame(a, { type: 'start', session: 'y', task: ASTROID.task });
    expect(a.openSessions.size).toBe(2);
    await frame(a, { type: 'start', session: 'z', task: ASTROID.task });
    expect(last()).toMatchObject({ type: 'error', code: 'overloaded', session: 'z' });

    // An ended session resumed on another connection is held there but is not open; an open one moves.
    const b = new Connection(2, sink(), 1 << 30);
    connections.set(2, b);
    await frame(b, { type: 'resume', session: 's3', after: -1 });
    await frame(b, { type: 'resume', session: 'x', after: -1 });
    expect([b.sessions.size, b.openSessions.size, a.openSessions.size]).toEqual([2, 1, 1]);
    await frame(a, { type: 'start', session: 'z', task: ASTROID.task });
    expect(last()).toMatchObject({ type: 'started', session: 'z' });
    await frame(b, { type: 'start', session: 'w', task: ASTROID.task });
    expect(last()).toMatchObject({ type: 'started', session: 'w' });
    await frame(b, { type: 'start', session: 'v', task: ASTROID.task });
    expect(last()).toMatchObject({ type: 'error', code: 'overloaded', session: 'v' });
  });
});
