import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Step } from '../../src/core/types.js';
import { ASTROID, Client, readDoc, readSteps, removeDir, startApp, tempDir, type Running } from './helpers.js';

let steps: Step[];
const cleanup: Array<() => Promise<void>> = [];

beforeAll(async () => {
  steps = await readSteps(ASTROID.passA);
});

afterEach(async () => {
  for (const f of cleanup.splice(0)) await f();
});

async function fresh(options: Parameters<typeof startApp>[0] = {}): Promise<{ srv: Running; dir: string }> {
  const dir = await tempDir();
  const srv = await startApp({ dataDir: dir, ...options });
  cleanup.push(async () => {
    await srv.app.close();
    await removeDir(dir);
  });
  return { srv, dir };
}

function sendSteps(c: Client, id: string, from: number, to: number): void {
  for (let seq = from; seq < to; seq++) c.send({ type: 'step', session: id, seq, step: steps[seq] });
}

describe('resume', () => {
  it('gives the same final after a dropped socket as an uninterrupted run', async () => {
    const { srv } = await fresh();
    const whole = await Client.connect(srv.wsUrl);
    whole.send({ type: 'start', session: 'whole', task: ASTROID.task });
    sendSteps(whole, 'whole', 0, steps.length);
    whole.send({ type: 'end', session: 'whole' });
    const expected = await whole.nextOf('final', 'whole');
    whole.close();

    const half = Math.floor(steps.length / 2);
    const first = await Client.connect(srv.wsUrl);
    first.send({ type: 'start', session: 'cut', task: ASTROID.task });
    sendSteps(first, 'cut', 0, half);
    await first.sync();
    const seen = first.frames.filter((f) => f.type === 'score').length;
    first.ws.terminate();
    await first.whenClosed();

    const second = await Client.connect(srv.wsUrl);
    second.send({ type: 'resume', session: 'cut', after: seen - 3 });
    expect(await second.nextOf('resumed', 'cut')).toEqual({ type: 'resumed', session: 'cut', last: half - 1 });
    const missed = [await second.nextOf('score', 'cut'), await second.nextOf('score', 'cut')];
    expect(missed.map((f) => f.seq)).toEqual([seen - 2, seen - 1]);
    // Re-sending an already scored seq is safe: its score comes back, nothing changes.
    sendSteps(second, 'cut', half - 1, steps.length);
    second.send({ type: 'end', session: 'cut' });
    const final = await second.nextOf('final', 'cut');
    expect({ ...final, session: 'whole' }).toEqual(expected);
    second.close();
  });

  it('refuses to resume an unknown session and ends sessions nobody resumes', async () => {
    const { srv } = await fresh({ resumeWindowMs: 200, idleTimeoutMs: 60_000 });
    const c = await Client.connect(srv.wsUrl);
    c.send({ type: 'resume', session: 'ghost', after: -1 });
    expect((await c.nextOf('error')).code).toBe('unknown_session');
    c.send({ type: 'start', session: 'gone', task: ASTROID.task });
    await c.nextOf('started', 'gone');
    c.ws.terminate();
    await c.whenClosed();
    const detached = await fetch(`${srv.url}/v1/sessions/gone`);
    expect(((await detached.json()) as { state: string }).state).toBe('detached');
    await new Promise((r) => setTimeout(r, 700));
    expect((await fetch(`${srv.url}/v1/sessions/gone`)).status).toBe(404);
  });

  it('ends idle sessions with a final and frees them', async () => {
    const { srv } = await fresh({ idleTimeoutMs: 150, resumeWindowMs: 150 });
    const c = await Client.connect(srv.wsUrl);
    c.send({ type: 'start', session: 'idle', task: ASTROID.task });
    sendSteps(c, 'idle', 0, 3);
    const final = await c.nextOf('final', 'idle');
    expect(final.steps).toBe(3);
    await new Promise((r) => setTimeout(r, 400));
    expect((await fetch(`${srv.url}/v1/sessions/idle`)).status).toBe(404);
    c.close();
  });
});

describe('restart', () => {
  it("keeps every PTA and a learn session's merged reference", async () => {
    const dir = await tempDir();
    cleanup.push(() => removeDir(dir));
    const first = await startApp({ dataDir: dir });
    const res = await fetch(`${first.url}/v1/tasks/${ASTROID.task}/references`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ trajectory: await readDoc(ASTROID.passB) }),
    });
    expect(await res.json()).toMatchObject({ task: ASTROID.task, version: 1, references: 1 });
    const c = await Client.connect(first.wsUrl);
    c.send({ type: 'start', session: 'learner', task: ASTROID.task, learn: true });
    sendSteps(c, 'learner', 0, steps.length);
    c.send({ type: 'outcome', session: 'learner', passed: true });
    c.send({ type: 'end', session: 'learner' });
    const final = await c.nextOf('final', 'learner');
    expect(final.learned).toEqual({ version: 2 });
    c.close();
    const before = await (await fetch(`${first.url}/v1/tasks/${ASTROID.task}/pta`)).text();
    await first.app.close();

    const second = await startApp({ dataDir: dir });
    const tasks = (await (await fetch(`${second.url}/v1/tasks`)).json()) as { tasks: Array<{ task: string; version: number; references: number }> };
    expect(tasks.tasks).toEqual([expect.objectContaining({ task: ASTROID.task, version: 2, references: 2 })]);
    expect(await (await fetch(`${second.url}/v1/tasks/${ASTROID.task}/pta`)).text()).toBe(before);
    const d = await Client.connect(second.wsUrl);
    d.send({ type: 'start', session: 'after', task: ASTROID.task });
    expect((await d.nextOf('started', 'after')).reference).toMatchObject({ kind: 'pta', version: 2 });
    d.close();
    await second.app.close();
  });

  it('sends final to open sessions and closes sockets with a reason on shutdown', async () => {
    const dir = await tempDir();
    cleanup.push(() => removeDir(dir));
    const srv = await startApp({ dataDir: dir });
    const c = await Client.connect(srv.wsUrl);
    c.send({ type: 'start', session: 'open-at-close', task: ASTROID.task });
    sendSteps(c, 'open-at-close', 0, 4);
    await c.sync();
    const closing = srv.app.close();
    const final = await c.nextOf('final', 'open-at-close');
    expect(final.steps).toBe(4);
    expect(await c.whenClosed()).toEqual({ code: 1001, reason: 'server shutting down' });
    await closing;
  });
});
