/**
 * A connection's frames find their session through the one the connection named last (`Connection.lastNamed`),
 * without the registry's keyed lookup, only while the registry still holds that very session under its key: a
 * session gone from the registry, one started again under the same id, and one taken over by another connection
 * are found (or refused) as the registry's lookup finds them, and a dropped session is not kept by the slot.
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
import { sessionKey } from '../../src/server/principal.js';
import { SessionRegistry } from '../../src/server/session-registry.js';
import { handleFrame, type HandlerDeps } from '../../src/server/stream-handler.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import type { Step } from '../../src/core/types.js';
import { ASTROID, readSteps, recordingSocket } from './helpers.js';

const sent: Array<Record<string, unknown>> = [];
const sink = (): WebSocket => recordingSocket(sent);

let dir: string;
let deps: HandlerDeps;
let connections: Map<number, Connection>;
let steps: Step[];
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'steplens-named-'));
  const store = await ReferenceStore.open({ dataDir: dir });
  const options = resolveOptions({ limits: { sessionsPerConnection: 10, totalSessions: 100 } });
  connections = new Map();
  const metrics = createMetrics(store);
  const log = pino({ level: 'silent' });
  deps = { registry: new SessionRegistry({ store, analyzers: defaultAnalyzers(), metrics, log, options, connections }), metrics, log, options };
  steps = await readSteps(ASTROID.fail);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const frame = async (conn: Connection, m: Record<string, unknown>): Promise<void> => await handleFrame(deps, conn, Buffer.from(JSON.stringify(m)), false);
const last = (): Record<string, unknown> => sent[sent.length - 1]!;
const connection = (id: number): Connection => {
  const c = new Connection(id, sink(), 1 << 30);
  connections.set(id, c);
  return c;
};

describe('the session a connection named last', () => {
  it('is taken only while the registry holds it: a session started again under the same id gets the steps', async () => {
    const a = connection(1);
    await frame(a, { type: 'start', session: 'same', task: ASTROID.task });
    for (let seq = 0; seq < 3; seq++) await frame(a, { type: 'step', session: 'same', seq, step: steps[seq] });
    const first = deps.registry.find(a.principal.tenant, 'same')!;
    expect(first.length).toBe(3);
    expect(a.lastNamed).toBe(first);
    // Gone from the registry without the connection being told (as a bench frees its sessions), then started again.
    deps.registry.sessions.delete(sessionKey(a.principal.tenant, 'same'));
    await frame(a, { type: 'start', session: 'same', task: ASTROID.task });
    expect(last()).toMatchObject({ type: 'started', session: 'same' });
    const second = deps.registry.find(a.principal.tenant, 'same')!;
    expect(second).not.toBe(first);
    // Seq 0 again: the new session scores it; the old one would have answered it as a duplicate.
    await frame(a, { type: 'step', session: 'same', seq: 0, step: steps[0] });
    expect(last()).toMatchObject({ type: 'score', session: 'same', seq: 0 });
    expect([first.length, second.length]).toEqual([3, 1]);
    expect(a.lastNamed).toBe(second);
  });

  it('is not taken for another id, and is let go when another connection takes the session over', async () => {
    const a = connection(3);
    await frame(a, { type: 'start', session: 'p', task: ASTROID.task });
    await frame(a, { type: 'start', session: 'q', task: ASTROID.task });
    await frame(a, { type: 'step', session: 'p', seq: 0, step: steps[0] });
    await frame(a, { type: 'step', session: 'q', seq: 0, step: steps[0] });
    await frame(a, { type: 'step', session: 'p', seq: 1, step: steps[1] });
    const p = deps.registry.find(a.principal.tenant, 'p')!;
    const q = deps.registry.find(a.principal.tenant, 'q')!;
    expect([p.length, q.length]).toEqual([2, 1]);
    expect(a.lastNamed).toBe(p);
    const b = connection(4);
    await frame(b, { type: 'resume', session: 'p', after: 1 });
    expect(a.lastNamed).toBeUndefined();
    await frame(a, { type: 'step', session: 'p', seq: 2, step: steps[2] });
    expect(last()).toMatchObject({ type: 'error', code: 'unknown_session', session: 'p', seq: 2 });
    await frame(b, { type: 'step', session: 'p', seq: 2, step: steps[2] });
    expect(last()).toMatchObject({ type: 'score', session: 'p', seq: 2 });
    expect(b.lastNamed).toBe(p);
    expect(p.length).toBe(3);
  });
});
