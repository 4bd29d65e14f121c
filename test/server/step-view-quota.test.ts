/**
 * Step views (`GET /v1/sessions/:id/steps`) run one at a time: a tenant has at most VIEWS_PER_TENANT of them queued.
 * Past that it gets one clear 429; another tenant's view is still answered, and the refused ones lose nothing.
 */
import { describe, expect, it } from 'vitest';
import { VIEWS_PER_TENANT } from '../../src/server/web-routes.js';
import { ALICE_BOB_OPS, ASTROID, bearerJson, Client, readEvents, useApps } from './helpers.js';

const apps = useApps();
const STEPS = 3000;

describe('step views per tenant', () => {
  it('answers a tenant past its queued views with 429 quota_exceeded, and still serves another tenant', async () => {
    const srv = await apps.start('views', { tokens: ALICE_BOB_OPS });
    const events = await readEvents(ASTROID.passA);
    for (const token of ['alice', 'bob']) {
      const c = await Client.connect(srv.wsUrl, bearerJson(token));
      c.send({ type: 'start', session: 'run', task: ASTROID.task, format: 'mini-swe-agent' });
      await c.nextOf('started', 'run');
      // The run's raw events again and again (about half as many steps): a view of them takes a few turns to build.
      for (let seq = 0; seq < STEPS; seq++) c.send({ type: 'step', session: 'run', seq, step: events[seq % events.length] });
      await c.sync();
    }
    const view = (token: string) =>
      fetch(`${srv.url}/v1/sessions/run/steps`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { steps?: unknown[]; error?: { code: string; message: string } },
      }));
    const n = VIEWS_PER_TENANT + 16;
    const answers = await Promise.all([...Array.from({ length: n }, () => view('alice')), view('bob')]);
    const alice = answers.slice(0, n);
    const refused = alice.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(alice.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(VIEWS_PER_TENANT);
    expect(refused[0]!.body.error).toMatchObject({ code: 'quota_exceeded', message: expect.stringContaining('step views of this tenant are queued') });
    const status = (await (await fetch(`${srv.url}/v1/sessions/run`, { headers: { authorization: 'Bearer alice' } })).json()) as { steps: number };
    expect(status.steps).toBeGreaterThan(1000);
    for (const a of alice.filter((x) => x.status === 200)) expect(a.body.steps).toHaveLength(status.steps);
    expect(answers[n]!.status).toBe(200); // bob's
    // Once answered, alice's views are served again.
    expect((await view('alice')).status).toBe(200);
  });
});
