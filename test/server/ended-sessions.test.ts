/**
 * F3: ended sessions were kept for the whole resume window and counted toward no limit: 5,000 cycles of
 * start / 82 steps / end took RSS from 87 to 620 MB with no session open. They are now bounded by count and
 * by bytes (oldest dropped first), release their scorer when they end, and the metrics say how many are kept.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Step } from '../../src/core/types.js';
import { ASTROID, Client, readSteps, removeDir, startApp, tempDir, type Running } from './helpers.js';

let steps: Step[];
let dir: string;
let srv: Running;
const KEEP = 12;
/** The bundled references: astroid-1196's PTA, so that an ended session's alignment has something to align to. */
const EXAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/example');

beforeAll(async () => {
  steps = (await readSteps(ASTROID.passA)).slice(0, 10);
  dir = await tempDir();
  srv = await startApp({ dataDir: dir, seedDirs: [EXAMPLE], limits: { maxEndedSessions: KEEP } });
});
afterAll(async () => {
  await srv.app.close();
  await removeDir(dir);
});

async function cycle(c: Client, id: string): Promise<void> {
  c.send({ type: 'start', session: id, task: ASTROID.task });
  steps.forEach((step, seq) => c.send({ type: 'step', session: id, seq, step }));
  c.send({ type: 'end', session: id });
  await c.nextOf('final', id);
}

const gauge = (metrics: string, name: string): number => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1]);

describe('ended sessions', () => {
  it('are kept up to the count limit, oldest dropped first, and counted in the metrics', async () => {
    const c = await Client.connect(srv.wsUrl);
    const ids = Array.from({ length: 40 }, (_, i) => `cycle-${i}`);
    for (const id of ids) await cycle(c, id);
    c.frames.length = 0;
    const status = async (id: string): Promise<number> => (await fetch(`${srv.url}/v1/sessions/${id}`)).status;
    expect(await status(ids[0]!)).toBe(404);
    expect(await status(ids[ids.length - KEEP - 1]!)).toBe(404);
    for (const id of ids.slice(-KEEP)) expect(await status(id)).toBe(200);
    const ended = (await (await fetch(`${srv.url}/v1/sessions/${ids[ids.length - 1]}`)).json()) as { state: string; steps: number };
    expect(ended).toMatchObject({ state: 'ended', steps: steps.length });

    // A kept ended session still resumes: its frames and final come back.
    c.send({ type: 'resume', session: ids[ids.length - 1], after: -1 });
    expect(await c.nextOf('resumed')).toMatchObject({ last: steps.length - 1 });
    expect(await c.nextOf('final')).toMatchObject({ steps: steps.length });

    const metrics = await (await fetch(`${srv.url}/metrics`)).text();
    expect(gauge(metrics, 'steplens_ended_sessions')).toBe(KEEP);
    expect(gauge(metrics, 'steplens_ended_session_bytes')).toBeGreaterThan(0);
    expect(gauge(metrics, 'steplens_active_sessions')).toBe(0);
    c.close();
  });

  it("show the same steps once ended as while open (their states are kept in the scorer's columns)", async () => {
    const c = await Client.connect(srv.wsUrl);
    const id = 'same-steps';
    c.send({ type: 'start', session: id, task: ASTROID.task });
    steps.forEach((step, seq) => c.send({ type: 'step', session: id, seq, step }));
    await c.sync();
    const read = async (what: string): Promise<unknown> => (await fetch(`${srv.url}/v1/sessions/${id}/${what}`)).json();
    const [openSteps, openAlignment] = [await read('steps'), await read('alignment')];
    c.send({ type: 'end', session: id });
    await c.nextOf('final', id);
    expect(((await (await fetch(`${srv.url}/v1/sessions/${id}`)).json()) as { state: string }).state).toBe('ended');
    // Once ended the view also carries the final; the steps are the same.
    expect((await read('steps')) as object).toMatchObject({ steps: (openSteps as { steps: unknown[] }).steps });
    expect(await read('alignment')).toEqual(openAlignment);
    expect((openSteps as { steps: unknown[] }).steps).toHaveLength(steps.length);
    expect((openAlignment as { steps: unknown[] }).steps).toHaveLength(steps.length);
    c.close();
  });

  it('are bounded by bytes too', async () => {
    const small = await startApp({ dataDir: `${dir}/bytes`, limits: { maxEndedSessionBytes: 1 } });
    try {
      const c = await Client.connect(small.wsUrl);
      for (let i = 0; i < 5; i++) await cycle(c, `b-${i}`);
      // Each ended session alone is over the budget: only the newest is kept (it just ended, its client may resume it).
      const metrics = await (await fetch(`${small.url}/metrics`)).text();
      expect(gauge(metrics, 'steplens_ended_sessions')).toBe(1);
      expect((await fetch(`${small.url}/v1/sessions/b-4`)).status).toBe(200);
      expect((await fetch(`${small.url}/v1/sessions/b-3`)).status).toBe(404);
      c.close();
    } finally {
      await small.app.close();
    }
  });
});
