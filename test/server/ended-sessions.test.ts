/**
 * F3: ended sessions were kept for the whole resume window and counted toward no limit: 5,000 cycles of
 * start / 82 steps / end took RSS from 87 to 620 MB with no session open. They are now bounded by count and
 * by bytes (oldest dropped first), release their scorer when they end, and the metrics say how many are kept.
 * Past a bound the oldest of the tenant holding the most goes: another tenant's flood of 10,000 empty sessions
 * freed a victim's final 10 s after it ended, within the 5 min resume window.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Step } from '../../src/core/types.js';
import { EndedSessions } from '../../src/server/ended-sessions.js';
import { bearer, ASTROID, Client, readSteps, removeDir, startApp, tempDir, type Running } from './helpers.js';
import { cpuMs } from '../cpu-clock.js';

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

describe('ended sessions of several tenants', () => {
  it("one tenant's flood frees its own oldest, never another tenant's final within the resume window", async () => {
    const shared = await startApp({
      dataDir: `${dir}/tenants`,
      seedDirs: [EXAMPLE],
      limits: { maxEndedSessions: 20 },
      tokens: [
        { token: 'alice', tenant: 'alice' },
        { token: 'mallory', tenant: 'mallory' },
        { token: 'ops', tenant: 'ops', role: 'operator' },
      ],
    });
    try {
      const alice = await Client.connect(shared.wsUrl, bearer('alice'));
      await cycle(alice, 'alice-run');
      const mallory = await Client.connect(shared.wsUrl, bearer('mallory'));
      for (let i = 0; i < 60; i++) {
        mallory.send({ type: 'start', session: `m-${i}`, task: 'x' });
        mallory.send({ type: 'end', session: `m-${i}` });
      }
      await mallory.nextOf('final', 'm-59');
      const status = async (token: string, id: string): Promise<number> => (await fetch(`${shared.url}/v1/sessions/${id}`, { headers: bearer(token) })).status;
      expect(await status('alice', 'alice-run')).toBe(200);
      alice.send({ type: 'resume', session: 'alice-run', after: -1 });
      expect(await alice.nextOf('final', 'alice-run')).toMatchObject({ steps: steps.length });
      // Mallory's own oldest went: it holds the other 19 slots.
      expect(await status('mallory', 'm-40')).toBe(404);
      expect(await status('mallory', 'm-41')).toBe(200);
      const metrics = await (await fetch(`${shared.url}/metrics`, { headers: bearer('ops') })).text();
      expect(gauge(metrics, 'steplens_ended_sessions')).toBe(20);
      alice.close();
      mallory.close();
    } finally {
      await shared.app.close();
    }
  });

  it('past a bound free the oldest of the tenant holding the most (count or bytes), never the newest', () => {
    const kept = new EndedSessions({ maxEndedSessions: 4, maxEndedSessionBytes: 1000 });
    expect(kept.add('a:1', 'a', 10)).toEqual([]);
    expect(kept.add('a:2', 'a', 10)).toEqual([]);
    expect(kept.add('b:1', 'b', 10)).toEqual([]);
    expect(kept.add('b:2', 'b', 10)).toEqual([]);
    // Tied at 2 each before b:3 came: b now holds the most.
    expect(kept.add('b:3', 'b', 10)).toEqual(['b:1']);
    // a and b hold 2 each: the older oldest goes.
    expect(kept.add('c:1', 'c', 10)).toEqual(['a:1']);
    expect(kept.add('c:2', 'c', 10)).toEqual(['b:2']);
    expect(kept.add('c:3', 'c', 900)).toEqual(['c:1']);
    // Over both: one entry of the tenant holding the most entries, then c's (holding the most bytes) until within bytes.
    expect(kept.add('a:3', 'a', 100)).toEqual(['a:2', 'c:2', 'c:3']);
    expect([kept.count, kept.bytes]).toEqual([2, 110]);
    // Alone over the bound, the newest is kept (though its tenant holds the most) and every other goes.
    expect(kept.add('d:1', 'd', 5000)).toEqual(['a:3', 'b:3']);
    expect([kept.count, kept.bytes]).toEqual([1, 5000]);
    kept.delete('d:1');
    expect([kept.count, kept.bytes]).toEqual([0, 0]);
  });

  it('stay cheap per add at the default bounds while one tenant floods', () => {
    const kept = new EndedSessions({ maxEndedSessions: 10_000, maxEndedSessionBytes: 64 * 1024 * 1024 });
    for (let t = 0; t < 50; t++) kept.add(`t${t}:keep`, `t${t}`, 100);
    // 40,000 evictions: a scan of the 10,000 kept per add would take seconds (about 300 ms here). CPU time: a loaded
    // machine's wall-clock passed 2 s.
    const started = cpuMs();
    for (let i = 0; i < 50_000; i++) kept.add(`m:${i}`, 'm', 100);
    expect(cpuMs() - started).toBeLessThan(2000);
    expect(kept.count).toBe(10_000);
    // Every other tenant's session outlived the flood, and their next ones still push out the flood's oldest.
    for (let t = 0; t < 50; t++) expect(kept.add(`t${t}:more`, `t${t}`, 100)).toEqual([`m:${40_050 + t}`]);
  });
});
