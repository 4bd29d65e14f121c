import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Step } from '../../src/core/types.js';
import { ASTROID, Client, readSteps, removeDir, startApp, tempDir, type Running } from './helpers.js';

let dir: string;
let srv: Running;
let steps: Step[];

beforeAll(async () => {
  dir = await tempDir();
  srv = await startApp({
    dataDir: dir,
    limits: { sessionsPerConnection: 3, totalSessions: 6, maxFrameBytes: 64 * 1024, maxStepsPerSession: 8 },
  });
  steps = await readSteps(ASTROID.fail);
});

afterAll(async () => {
  await srv.app.close();
  await removeDir(dir);
});

async function live(id: string): Promise<{ steps: number; lastSeq: number; state: string }> {
  const res = await fetch(`${srv.url}/v1/sessions/${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as { steps: number; lastSeq: number; state: string };
}

describe('bad input on the stream', () => {
  it('refuses each bad message with its code while the connection and other sessions keep working', async () => {
    const c = await Client.connect(srv.wsUrl);
    c.send({ type: 'start', session: 'keep', task: ASTROID.task });
    c.send({ type: 'start', session: 'other', task: ASTROID.task });
    await c.nextOf('started', 'keep');
    await c.nextOf('started', 'other');
    c.send({ type: 'step', session: 'keep', seq: 0, step: steps[0] });
    c.send({ type: 'step', session: 'keep', seq: 1, step: steps[1] });
    await c.nextOf('score', 'keep');
    const firstSecond = await c.nextOf('score', 'keep');

    const expectError = async (message: unknown, code: string, text?: RegExp): Promise<Record<string, unknown>> => {
      c.send(message);
      const e = await c.nextOf('error');
      expect(e.code).toBe(code);
      if (text) expect(String(e.message)).toMatch(text);
      return e;
    };
    await expectError('{"type": "step", ', 'bad_message', /invalid JSON/);
    await expectError('[1,2]', 'bad_message', /object/);
    await expectError({ type: 'launch' }, 'bad_message', /^type: expected one of/);
    await expectError({ type: 'start', task: 42 }, 'bad_message', /^start\.task: /);
    await expectError({ type: 'step', session: 'keep', seq: 'two', step: steps[2] }, 'bad_message', /^step\.seq: /);
    await expectError({ type: 'step', session: 'keep', seq: 2, step: { ...steps[2], action: { kind: 'teleport' } } }, 'bad_message', /^step\.action\.kind/);
    await expectError({ type: 'step', session: 'keep', seq: 2, step: { tool: 'bash' } }, 'bad_message', /^step\.(t|action)/);
    await expectError({ type: 'start', session: 'x', task: 't', policy: { blindRetry: { warn: 'three' } } }, 'bad_message', /^start\.policy\.blindRetry\.warn/);
    await expectError({ type: 'start', session: 'x', task: 't', policy: { blindRetry: { warn: 6, stop: 3 } } }, 'bad_message', /warn \(6\) must be below/);
    const unknown = await expectError({ type: 'step', session: 'nope', seq: 0, step: steps[0] }, 'unknown_session');
    expect([unknown.session, unknown.seq]).toEqual(['nope', 0]);
    await expectError({ type: 'end', session: 'nope' }, 'unknown_session');
    await expectError({ type: 'start', session: 'keep', task: ASTROID.task }, 'duplicate_session');
    const gap = await expectError({ type: 'step', session: 'keep', seq: 5, step: steps[5] }, 'out_of_order', /next expected seq 2/);
    expect([gap.session, gap.seq]).toEqual(['keep', 5]);
    await expectError(JSON.stringify({ type: 'step', session: 'keep', seq: 2, step: { ...steps[2], observation: 'x'.repeat(70 * 1024) } }), 'too_large');
    // An end whose patch is within its characters but not the frame's bytes (non-ASCII): named, the session stays open.
    const end = await expectError(
      { type: 'end', session: 'keep', patch: 'é'.repeat(40 * 1024) },
      'too_large',
      /^end\.patch: the end's frame of \d+ bytes exceeds the limit of 65536 bytes .*the session stays open/,
    );
    expect(end.session).toBe('keep');
    await expectError('{"type":' + '"x"'.padEnd(70 * 1024), 'too_large', /an end with a patch must fit in it too/);

    // A duplicate seq is ignored and its score re-sent, unchanged.
    c.send({ type: 'step', session: 'keep', seq: 1, step: steps[7] });
    expect(await c.nextOf('score', 'keep')).toEqual(firstSecond);

    // Nothing accepted was lost, nothing refused was applied.
    expect(await live('keep')).toMatchObject({ steps: 2, lastSeq: 1, state: 'open' });
    c.send({ type: 'step', session: 'keep', seq: 2, step: steps[2] });
    expect((await c.nextOf('score', 'keep')).seq).toBe(2);
    c.send({ type: 'step', session: 'other', seq: 0, step: steps[0] });
    expect((await c.nextOf('score', 'other')).seq).toBe(0);
    expect(await live('keep')).toMatchObject({ steps: 3, lastSeq: 2 });
    await c.sync();
    expect(c.closed).toBeUndefined();
    c.close();
  });

  it('enforces sessions per connection, total sessions and steps per session', async () => {
    const a = await Client.connect(srv.wsUrl);
    for (const id of ['p1', 'p2', 'p3']) a.send({ type: 'start', session: id, task: 'limits' });
    for (const id of ['p1', 'p2', 'p3']) await a.nextOf('started', id);
    a.send({ type: 'start', session: 'p4', task: 'limits' });
    expect(await a.nextOf('error')).toMatchObject({ code: 'overloaded', session: 'p4' });
    // Ending a session frees its slot on the connection.
    a.send({ type: 'end', session: 'p1' });
    await a.nextOf('final', 'p1');
    a.send({ type: 'start', session: 'p4', task: 'limits' });
    await a.nextOf('started', 'p4');

    const b = await Client.connect(srv.wsUrl);
    const opened: string[] = [];
    for (const id of ['q1', 'q2', 'q3']) {
      b.send({ type: 'start', session: id, task: 'limits' });
      const f = await b.next((x) => (x.type === 'started' || x.type === 'error') && x.session === id);
      if (f.type === 'started') opened.push(id);
      else expect(f.code).toBe('overloaded');
    }
    // 2 sessions of the first test (detached) + p2..p4 + q1 = the limit of 6: q2 and q3 each end one of the
    // detached sessions (oldest first, not_resumed) rather than being refused; one tenant never gets quota_exceeded.
    expect(opened).toEqual(['q1', 'q2', 'q3']);
    expect(await live('keep')).toMatchObject({ state: 'ended' });
    // Full, with nobody detached: the server's own limit.
    const c = await Client.connect(srv.wsUrl);
    c.send({ type: 'start', session: 'r1', task: 'limits' });
    expect(await c.nextOf('error')).toMatchObject({ code: 'overloaded', session: 'r1' });
    c.close();

    for (let seq = 0; seq < 8; seq++) a.send({ type: 'step', session: 'p2', seq, step: steps[seq] });
    a.send({ type: 'step', session: 'p2', seq: 8, step: steps[8] });
    expect(await a.nextOf('error')).toMatchObject({ code: 'too_large', session: 'p2', seq: 8 });
    expect(await live('p2')).toMatchObject({ steps: 8, lastSeq: 7 });
    a.close();
    b.close();
  });

  it('refuses binary frames', async () => {
    const c = await Client.connect(srv.wsUrl);
    c.ws.send(Buffer.from('{"type":"ping"}'), { binary: true });
    expect((await c.nextOf('error')).code).toBe('bad_message');
    c.close();
  });
});
