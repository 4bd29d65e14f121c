import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type ScoreFrame, type SignalFrame } from '../../src/client/index.js';
import type { Step } from '../../src/core/types.js';
import { buildApp } from '../../src/server/app.js';
import { CORPUS, readSteps, removeDir, tempDir, type Running } from '../server/helpers.js';

/** A real run with a blind-retry episode (see test/server/signals.test.ts). */
const DJANGO = `${CORPUS}/SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/django__django-13401/django__django-13401.traj.json`;
const TASK = 'django__django-13401';
const POLICY = { blindRetry: { warn: 2, stop: 3 } };

let dir: string;
let steps: Step[];
const servers: Running[] = [];

beforeAll(async () => {
  dir = await tempDir();
  steps = await readSteps(DJANGO);
});

afterAll(async () => {
  for (const s of servers) await s.app.close();
  await removeDir(dir);
});

/** A server over the shared data dir, on `port` (0: any free port). */
async function serve(port = 0): Promise<Running> {
  const app = await buildApp({ logLevel: 'silent', dataDir: dir });
  const url = await app.listen({ host: '127.0.0.1', port });
  const running = { app, url, wsUrl: `${url.replace(/^http/, 'ws')}/v1/stream` };
  servers.push(running);
  return running;
}

describe('TypeScript client across a server restart', () => {
  it('starts the session again on the new server and replays it: every step scored once, the same final as an uninterrupted run', async () => {
    const first = await serve();
    const whole = await connect(first.url);
    const reference = await whole.start({ task: TASK, session: 'whole', policy: POLICY });
    await Promise.all(steps.map((s) => reference.step(s)));
    reference.outcome(false);
    const expected = await reference.end();
    await whole.close();

    const client = await connect(first.url, { reconnect: { retries: 8, delayMs: 20 } });
    let reconnects = 0;
    client.onReconnect(() => reconnects++);
    const session = await client.start({ task: TASK, session: 'restarted', policy: POLICY });
    const scores: ScoreFrame[] = [];
    const signals: SignalFrame[] = [];
    session.onScore((f) => scores.push(f));
    session.onSignal((f) => signals.push(f));
    const half = Math.floor(steps.length / 2);
    const before = await Promise.all(steps.slice(0, half).map((s) => session.step(s)));

    const port = Number(new URL(first.url).port);
    await first.app.close();
    servers.splice(servers.indexOf(first), 1);
    expect(session.done).toBe(false);
    const during = steps.slice(half, half + 3).map((s) => session.step(s));
    const second = await serve(port);
    const after = steps.slice(half + 3).map((s) => session.step(s));
    session.outcome(false);
    const final = await session.end();
    const answers = [...before, ...(await Promise.all([...during, ...after]))];

    expect(reconnects).toBe(1);
    expect(answers.map((a) => a.map((f) => f.t))).toEqual(steps.map((_, i) => [i]));
    expect(scores.map((f) => f.t)).toEqual(steps.map((_, i) => i));
    expect(signals.map((s) => [s.kind, s.severity, s.t])).toEqual(expected.signals.map((s) => [s.kind, s.severity, s.t]));
    expect({ ...final, session: 'whole' }).toEqual(expected);
    expect(final.steps).toBe(steps.length);
    const status = (await (await fetch(`${second.url}/v1/sessions/restarted`)).json()) as { steps: number; lastSeq: number };
    expect(status).toMatchObject({ steps: steps.length, lastSeq: steps.length - 1 });
    await client.close();
  });

  it('without reconnect, the shutdown final ends the session', async () => {
    for (const s of servers.splice(0)) await s.app.close(); // one server per data folder
    const server = await serve();
    const client = await connect(server.url);
    const session = await client.start({ task: TASK });
    await session.step(steps[0]);
    await server.app.close();
    servers.splice(servers.indexOf(server), 1);
    const final = await session.end();
    expect(final).toMatchObject({ type: 'final', reason: 'shutdown', steps: 1 });
  });
});
