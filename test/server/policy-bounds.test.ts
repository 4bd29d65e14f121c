/**
 * T33: a session's own policy (`start.policy`, and `policy` of the scoring routes) could ask for any cycle block
 * length. The cycle detector keeps a ring of `maxBlock + 1` states and checks every block length up to it at each
 * step: `start` with `cycle.maxBlock` 5,000,000 held every client 3.3 s and took 540 MB for one session (an agent
 * token may hold 1,024), and a larger one runs the process out of memory. Both block lengths are now at most
 * MAX_CYCLE_BLOCK (64): past it `bad_message`, nothing started or scored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CYCLE_BLOCK } from '../../src/core/policy.js';
import { ASTROID, Client, readDoc, removeDir, startApp, tempDir, type Running } from './helpers.js';

let dir: string;
let srv: Running;
beforeAll(async () => {
  dir = await tempDir();
  srv = await startApp({ dataDir: dir, scoringWorkers: 0 });
});
afterAll(async () => {
  await srv.app.close();
  await removeDir(dir);
});

describe('a policy of the client', () => {
  it('is refused bad_message with a cycle block longer than MAX_CYCLE_BLOCK, on the stream and over HTTP', async () => {
    const c = await Client.connect(srv.wsUrl);
    for (const cycle of [{ maxBlock: 5_000_000 }, { maxBlock: MAX_CYCLE_BLOCK + 1 }, { minBlock: 1e9, maxBlock: 1e9 }]) {
      c.send({ type: 'start', session: 'big-cycle', task: ASTROID.task, policy: { cycle } });
      const answer = await c.next((f) => f.type === 'started' || f.type === 'error');
      expect(answer, JSON.stringify(cycle)).toMatchObject({ type: 'error', code: 'bad_message', message: expect.stringContaining('cycle') });
    }
    c.send({ type: 'start', session: 'cycle-ok', task: ASTROID.task, policy: { cycle: { maxBlock: MAX_CYCLE_BLOCK } } });
    expect(await c.next((f) => f.type === 'started' || f.type === 'error')).toMatchObject({ type: 'started', session: 'cycle-ok' });
    c.close();

    const trajectory = await readDoc(ASTROID.passA);
    const res = await fetch(`${srv.url}/v1/score`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ task: ASTROID.task, trajectory, policy: { cycle: { maxBlock: 5_000_000 } } }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'bad_message', message: expect.stringContaining('cycle') } });
  });
});
