/**
 * Review s42 #3: a client whose socket dropped right after `end`, while the server was still ending the session
 * (a learn session writing its reference), resumed it on a new connection and sent `end` again: it got `resumed`
 * and never a `final` (the final went to the dropped connection), and the TS client with reconnect on waited in
 * `end()` for good. The final now goes to the connection holding the session when it is made, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/client/index.js';
import type { Step } from '../../src/core/types.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { ASTROID, Client, readSteps, removeDir, startApp, tempDir, type Running } from './helpers.js';

let steps: Step[];
let dir: string;
let srv: Running;

beforeAll(async () => {
  steps = (await readSteps(ASTROID.passA)).slice(0, 12);
  dir = await tempDir();
  const store = await ReferenceStore.open({ dataDir: dir });
  const addReference = store.addReference.bind(store);
  // Learning takes a while (a large PTA, a slow disk): the window in which the client reconnects.
  store.addReference = async (task, states) => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    return addReference(task, states);
  };
  srv = await startApp({ store });
});
afterAll(async () => {
  await srv.app.close();
  await removeDir(dir);
});

/** A learn session of `steps` with `passed` sent, its `end` sent, then its connection dropped at once. */
async function endAndDrop(id: string): Promise<void> {
  const a = await Client.connect(srv.wsUrl);
  a.send({ type: 'start', session: id, task: 'slow-learn', learn: true });
  await a.nextOf('started', id);
  a.send({ type: 'outcome', session: id, passed: true });
  steps.forEach((step, seq) => a.send({ type: 'step', session: id, seq, step }));
  await a.sync();
  a.send({ type: 'end', session: id });
  await new Promise((resolve) => setTimeout(resolve, 50));
  a.ws.terminate();
}

describe('a final made while the session moved to another connection', () => {
  it('goes to the connection that resumed it, once, whether it sent end again or not', async () => {
    for (const [id, again] of [
      ['resume-and-end', true],
      ['resume-only', false],
    ] as const) {
      await endAndDrop(id);
      const b = await Client.connect(srv.wsUrl);
      b.send({ type: 'resume', session: id, after: steps.length - 1 });
      if (again) b.send({ type: 'end', session: id });
      expect(await b.nextOf('resumed', id)).toMatchObject({ last: steps.length - 1 });
      const final = await b.nextOf('final', id, 5_000);
      expect(final).toMatchObject({ reason: 'end', steps: steps.length, learned: { version: expect.any(Number) as unknown } });
      await b.sync();
      expect(b.frames.filter((f) => f.type === 'final')).toEqual([]);
      // Later, end and resume answer it as before.
      b.send({ type: 'end', session: id });
      expect(await b.nextOf('final', id)).toEqual(final);
      b.close();
    }
  });

  it('ends the TS client’s end() when its socket drops just after end (reconnect on)', async () => {
    const client = await connect(srv.url, { reconnect: { retries: 5, delayMs: 20 } });
    const session = await client.start({ task: 'slow-learn', learn: true });
    session.outcome(true);
    await Promise.all(steps.map((s) => session.step(s)));
    const ended = session.end();
    setTimeout(() => client.socket.terminate(), 0);
    const final = await Promise.race([ended, new Promise((resolve) => setTimeout(() => resolve('still pending after 5 s'), 5_000))]);
    expect(final).toMatchObject({ type: 'final', reason: 'end', steps: steps.length });
    await client.close();
  });
});
