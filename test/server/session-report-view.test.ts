/**
 * A live session's report is kept until its next step or outcome (the web view polls it: 32 views of a 5,000-step
 * session each ran the waste analysis again). It must never be stale. The web view's step view is built a few
 * hundred rows a turn: the same view as built in one go.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scorer } from '../../src/core/scorer-api.js';
import { Connection } from '../../src/server/connection.js';
import { createMetrics } from '../../src/server/metrics.js';
import { resolveOptions } from '../../src/server/options.js';
import { SessionRegistry } from '../../src/server/session-registry.js';
import { sessionView, sessionViewInSteps, VIEW_ROWS_PER_TURN } from '../../src/server/session-view.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { loopTurnsDuring } from '../loop-turns.js';
import { ASTROID, readSteps, recordingSocket } from './helpers.js';

let dir: string;
let registry: SessionRegistry;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'steplens-report-memo-'));
  const store = await ReferenceStore.open({ dataDir: dir });
  registry = new SessionRegistry({ store, analyzers: defaultAnalyzers(), metrics: createMetrics(store), log: pino({ level: 'silent' }), options: resolveOptions({}), connections: new Map() });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a live session's report", () => {
  it('is the same object until a step or the outcome changes it, and then what a fresh report says', async () => {
    const steps = await readSteps(ASTROID.passA);
    const started = await registry.start({ type: 'start', session: 'memo', task: ASTROID.task }, new Connection(1, recordingSocket(), 1 << 24));
    if (!started.ok) throw new Error(started.error.message);
    const s = started.value;
    steps.slice(0, 10).forEach((step, seq) => s.step(seq, step));
    const first = s.report();
    expect(s.report()).toBe(first);
    expect(first.steps).toBe(10);

    s.step(10, steps[10]);
    const later = s.report();
    expect(later).not.toBe(first);
    expect(later.steps).toBe(11);
    expect(later.stages).toHaveLength(11);

    registry.setOutcome(s, true);
    const passed = s.report();
    expect(passed).not.toBe(later);
    // What the scorer itself reports now (the session's private `live` scorer).
    expect(passed).toEqual((s as unknown as { live: Scorer }).live.report(true));
  });

  it('is what the step view shows; the view built a few hundred rows a turn equals the one built in one go', async () => {
    const steps = await readSteps(ASTROID.fail);
    const started = await registry.start({ type: 'start', session: 'view', task: ASTROID.task }, new Connection(2, recordingSocket(), 1 << 24));
    if (!started.ok) throw new Error(started.error.message);
    const s = started.value;
    // The run's real steps again and again, past a few turns' worth of rows.
    for (let seq = 0; seq < 3 * VIEW_ROWS_PER_TURN; seq++) s.step(seq, steps[seq % steps.length]);
    const { value: sliced, turns } = await loopTurnsDuring(() => sessionViewInSteps(s));
    expect(turns).toBeGreaterThanOrEqual(2);
    expect(sliced.steps).toHaveLength(3 * VIEW_ROWS_PER_TURN);
    expect(sliced).toEqual(sessionView(s));
    expect(sliced.report.steps).toBe(s.report().steps);
  });
});
