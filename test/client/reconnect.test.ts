import { beforeAll, describe, expect, it } from 'vitest';
import { connect, type ScoreFrame, type SignalFrame } from '../../src/client/index.js';
import type { Step } from '../../src/core/types.js';
import { ASTROID, CORPUS, readSteps, useApp } from '../server/helpers.js';

/** A real run with a blind-retry episode over steps 5, 7, 9, 11 (see test/server/signals.test.ts). */
const DJANGO = `${CORPUS}/SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/django__django-13401/django__django-13401.traj.json`;
const POLICY = { blindRetry: { warn: 2, stop: 3 } };

const app = useApp();
let steps: Step[];

beforeAll(async () => {
  steps = await readSteps(DJANGO);
});

/** The uninterrupted run's final, under another session id. */
async function uninterrupted(id: string, passed?: boolean) {
  const client = await connect(app().url);
  const session = await client.start({ task: 'django__django-13401', session: id, policy: POLICY });
  await Promise.all(steps.map((s) => session.step(s)));
  if (passed !== undefined) session.outcome(passed);
  const final = await session.end();
  await client.close();
  return final;
}

function collect(session: { onScore(cb: (f: ScoreFrame) => void): unknown; onSignal(cb: (f: SignalFrame) => void): unknown }) {
  const scores: ScoreFrame[] = [];
  const signals: SignalFrame[] = [];
  session.onScore((f) => scores.push(f));
  session.onSignal((f) => signals.push(f));
  return { scores, signals };
}

describe('reconnect and resume', () => {
  it('survives the client socket dying mid-trajectory: same final, no duplicated frames, pending steps resolve', async () => {
    const expected = await uninterrupted('whole-1');
    const client = await connect(app().url, { reconnect: { retries: 5, delayMs: 20 } });
    let reconnects = 0;
    client.onReconnect(() => reconnects++);
    const session = await client.start({ task: 'django__django-13401', session: 'cut-1', policy: POLICY });
    const seen = collect(session);
    const half = Math.floor(steps.length / 2);
    for (const s of steps.slice(0, half)) await session.step(s);
    const first = client.socket;
    const inFlight = steps.slice(half, half + 3).map((s) => session.step(s));
    first.terminate();
    const rest = steps.slice(half + 3).map((s) => session.step(s));
    const answers = await Promise.all([...inFlight, ...rest]);
    expect(client.socket).not.toBe(first);
    expect(reconnects).toBe(1);
    expect(answers.map((a) => a.map((f) => f.seq))).toEqual(steps.slice(half).map((_, i) => [half + i]));
    const final = await session.end();
    expect({ ...final, session: 'whole-1' }).toEqual(expected);
    expect(seen.scores.map((f) => f.t)).toEqual(steps.map((_, i) => i));
    expect(seen.signals.map((s) => [s.kind, s.severity, s.t])).toEqual(expected.signals.map((s) => [s.kind, s.severity, s.t]));
    await client.close();
  });

  it('survives the server dropping every socket: steps, outcome and end sent into the dead socket are sent again', async () => {
    const expected = await uninterrupted('whole-2', false);
    const client = await connect(app().url, { reconnect: { retries: 5, delayMs: 20 } });
    const session = await client.start({ task: 'django__django-13401', session: 'cut-2', policy: POLICY });
    const seen = collect(session);
    const half = Math.floor(steps.length / 2);
    const before = await Promise.all(steps.slice(0, half).map((s) => session.step(s)));
    for (const ws of app().app.websocketServer.clients) ws.terminate();
    const after = steps.slice(half).map((s) => session.step(s));
    session.outcome(false);
    const ending = session.end();
    const answers = [...before, ...(await Promise.all(after))];
    const final = await ending;
    expect(answers.flat()).toEqual(seen.scores);
    expect(seen.scores.map((f) => f.t)).toEqual(steps.map((_, i) => i));
    expect(seen.signals.map((s) => [s.kind, s.severity, s.t])).toEqual(expected.signals.map((s) => [s.kind, s.severity, s.t]));
    expect({ ...final, session: 'whole-2' }).toEqual(expected);
    expect(final.passed).toBe(false);
    await client.close();
  });

  it('without reconnect, a dropped socket rejects pending calls with disconnected', async () => {
    const client = await connect(app().url);
    const session = await client.start({ task: ASTROID.task });
    const step = session.step(steps[0]);
    client.socket.terminate();
    await expect(step).rejects.toMatchObject({ code: 'disconnected' });
    await expect(session.end()).rejects.toMatchObject({ code: 'disconnected' });
    expect(client.closed).toBe(true);
  });

  it('gives up after its retries when the server is gone', async () => {
    const { startApp, tempDir, removeDir } = await import('../server/helpers.js');
    const dir = await tempDir();
    const srv = await startApp({ dataDir: dir });
    const client = await connect(srv.url, { reconnect: { retries: 2, delayMs: 10 } });
    const session = await client.start({ task: ASTROID.task });
    await srv.app.close();
    const final = await session.end().catch((e: unknown) => e);
    // The server ends open sessions on shutdown: the final arrives before the socket closes.
    expect(final).toMatchObject({ type: 'final', steps: 0 });
    await expect(client.ping()).rejects.toMatchObject({ code: 'disconnected', message: expect.stringMatching(/2 reconnect attempts failed/) });
    await removeDir(dir);
  });
});
