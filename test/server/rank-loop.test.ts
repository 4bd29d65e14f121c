/**
 * `POST /v1/rank` over live sessions does its session reads on the event loop every tenant's sockets share. A
 * tenant naming its own 5,000-step session 64 times with `consensus` (each step editing another file: 10,000 edit
 * locations) held the loop 2.7 s per call (64 reads of one session, then 2,016 string-keyed set intersections):
 * a handful of such calls froze every other tenant. A session named twice is read once, the loop is given back
 * between sessions, and the consensus intersects interned ids.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Session } from '../../src/server/session.js';
import { ASTROID, Client, readSteps, removeDir, startApp, tempDir, type Running } from './helpers.js';

const STEPS = 5000;

describe('POST /v1/rank naming one big live session 64 times', () => {
  let dir: string;
  let srv: Running;
  beforeAll(async () => {
    dir = await tempDir();
    srv = await startApp({ dataDir: dir, scoringWorkers: 1, tokens: [{ token: 'mallory', tenant: 'm' }] });
  });
  afterAll(async () => {
    await srv.app.close();
    await removeDir(dir);
  });

  it('reads the session once, not once per name', async () => {
    // A real step of the astroid run, its command turned into an edit of a file of its own per step.
    const real = (await readSteps(ASTROID.passA))[0]!;
    const c = await Client.connect(srv.wsUrl, { authorization: 'Bearer mallory' });
    c.send({ type: 'start', session: 'big', task: ASTROID.task });
    await c.nextOf('started', 'big');
    for (let seq = 0; seq < STEPS; seq++) {
      const command = `sed -i 's/foo/bar/' astroid/pkg${seq}/mod_${seq}.py`;
      c.send({ type: 'step', session: 'big', seq, step: { ...real, t: seq, args: { command }, action: { kind: 'shell', command }, observation: '<returncode>0</returncode>\n<output>\n</output>' } });
    }
    for (let seq = 0; seq < STEPS; seq++) await c.nextOf('score', 'big');

    const reads = vi.spyOn(Session.prototype, 'headline');
    try {
      const res = await fetch(`${srv.url}/v1/rank`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer mallory' },
        body: JSON.stringify({ consensus: true, runs: Array.from({ length: 64 }, (_, i) => ({ session: 'big', id: `r${i}` })) }),
      });
      const body = (await res.json()) as { by: string; runs: Array<{ consensus: number; steps: number }> };
      expect(res.status).toBe(200);
      expect(body.by).toBe('consensus');
      expect(body.runs).toHaveLength(64);
      // The same session: every copy agrees with every other on where to edit.
      expect(body.runs.every((r) => r.consensus === 1 && r.steps === STEPS)).toBe(true);
      // Read once, not 64 times (the loop delay, measured outside the suite: 2,754 ms at once before, 44 ms after).
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
      c.close();
    }
  }, 120_000);
});
