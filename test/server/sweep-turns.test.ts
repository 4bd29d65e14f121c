/**
 * The sweep ends the sessions whose resume window ran out one a turn of the event loop. It ended them all in one
 * turn: a burst that left four 5,000-step sessions detached held every client 0.9-1.2 s when their window ran out
 * (bench/stall.js, burst-20k then batch; bench/README.md "Detached sessions ended one a turn").
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../src/server/connection.js';
import { createMetrics } from '../../src/server/metrics.js';
import { resolveOptions } from '../../src/server/options.js';
import { SessionRegistry } from '../../src/server/session-registry.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { loopTurnsDuring } from '../loop-turns.js';
import { ASTROID, readSteps, recordingSocket } from './helpers.js';

const RESUME_WINDOW_MS = 1_000;
let dir: string;
let registry: SessionRegistry;
const connections = new Map<number, Connection>();

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'steplens-sweep-'));
  const store = await ReferenceStore.open({ dataDir: dir });
  const options = resolveOptions({ resumeWindowMs: RESUME_WINDOW_MS });
  registry = new SessionRegistry({ store, analyzers: defaultAnalyzers(), metrics: createMetrics(store), log: pino({ level: 'silent' }), options, connections });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the sweep past the resume window', () => {
  it('ends the detached sessions one a turn, each with its final, and frees them', async () => {
    const steps = await readSteps(ASTROID.fail);
    const conn = new Connection(1, recordingSocket(), 1 << 24);
    connections.set(1, conn);
    const sessions = [];
    for (let i = 0; i < 4; i++) {
      const started = await registry.start({ type: 'start', session: `s${i}`, task: ASTROID.task }, conn);
      if (!started.ok) throw new Error(started.error.message);
      steps.forEach((step, seq) => started.value.step(seq, step));
      sessions.push(started.value);
    }
    registry.closed(conn);
    connections.delete(1);
    expect(sessions.every((s) => s.detachedAt !== undefined && !s.ended)).toBe(true);

    const { turns } = await loopTurnsDuring(() => registry.sweep(Date.now() + RESUME_WINDOW_MS + 1));
    for (const s of sessions) {
      expect(s.final?.reason).toBe('not_resumed');
      expect(s.final?.steps).toBe(steps.length);
    }
    expect(registry.openCount()).toBe(0);
    // One end a turn: four ends took at least four turns (all in one, before: 0 turns went by).
    expect(turns).toBeGreaterThanOrEqual(4);
  });
});
