/**
 * A `start` over 8x the server's `maxFrameBytes` is closed 1009 by ws like an oversized step (frame-close.test.ts),
 * but only steps were matched to that close: the client reconnected, sent the start again, was closed again, for
 * good, and the start never settled. The start now rejects `too_large` naming its session, nothing of it is kept,
 * and the client's other sessions go on. The same for the frames a client sends again on its own: a session's
 * start and steps sent again to a restarted server whose limit is now lower lose that session, not the connection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type StartOptions } from '../../src/client/index.js';
import type { Step } from '../../src/core/types.js';
import { buildApp } from '../../src/server/app.js';
import type { AppOptions } from '../../src/server/options.js';
import { ASTROID, readSteps, removeDir, tempDir, useApp } from '../server/helpers.js';

/** maxPayload 8 x 700 = 5,600 bytes. */
const LIMIT = 700;
const app = useApp({ limits: { maxFrameBytes: LIMIT } });
let steps: Step[];
let dir: string;
const servers: Array<Awaited<ReturnType<typeof buildApp>>> = [];
/** Step 8 of the failing astroid run is over 5,600 bytes of JSON; steps 24 and 25 are under 700. */
const BIG = 8;
const SMALL = [24, 25] as const;
/** A start carrying a payload over 8x the limit (fields the server does not know are sent as they are). */
const hugeStart = (session: string): StartOptions => ({ task: ASTROID.task, session, metadata: 'x'.repeat(8 * LIMIT) }) as StartOptions;

beforeAll(async () => {
  dir = await tempDir();
  steps = await readSteps(ASTROID.fail);
  expect(JSON.stringify(steps[BIG]).length).toBeGreaterThan(8 * LIMIT);
});

afterAll(async () => {
  for (const s of servers) await s.close();
  await removeDir(dir);
});

/** A server over the shared data dir on `port` (0: any free one); its URL. */
async function serve(port: number, options: AppOptions = {}): Promise<string> {
  const server = await buildApp({ logLevel: 'silent', dataDir: dir, ...options });
  servers.push(server);
  return server.listen({ host: '127.0.0.1', port });
}

/** `promise`, or a rejection once `ms` have passed: the old client never settled these. */
function within<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms: ${what()}`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('a start so large that the server closes the socket (1009)', () => {
  it('with reconnect: rejects that start too_large once, keeps nothing of it; the other sessions go on', { timeout: 10_000 }, async () => {
    const client = await connect(app().url, { reconnect: { retries: 3, delayMs: 20 } });
    let reconnects = 0;
    client.onReconnect(() => reconnects++);
    const other = await client.start({ task: ASTROID.task });
    expect((await other.step(steps[SMALL[0]])).map((f) => f.seq)).toEqual([0]);
    const start = within(client.start(hugeStart('huge')), 3_000, () => `${reconnects} reconnects`);
    await expect(start).rejects.toMatchObject({ code: 'too_large', session: 'huge', message: expect.stringMatching(/^start of session huge: .* over the server's limit .*1009/) as unknown });
    // Nothing was kept: the id starts afresh, and its first step is step 0.
    const again = await client.start({ task: ASTROID.task, session: 'huge' });
    expect((await again.step(steps[SMALL[0]])).map((f) => [f.seq, f.t])).toEqual([[0, 0]]);
    expect((await other.step(steps[SMALL[1]])).map((f) => [f.seq, f.t])).toEqual([[1, 1]]);
    expect(reconnects).toBe(1);
    expect((await again.end()).steps).toBe(1);
    expect((await other.end()).steps).toBe(2);
    await client.close();
  });

  it('without reconnect: that start rejects too_large, the rest disconnected', async () => {
    const client = await connect(app().url);
    const other = await client.start({ task: ASTROID.task });
    await expect(client.start(hugeStart('huge'))).rejects.toMatchObject({ code: 'too_large', session: 'huge' });
    await expect(other.step(steps[SMALL[0]])).rejects.toMatchObject({ code: 'disconnected' });
    await client.close();
  });

  it('a restarted server with a lower limit: the session whose replay it closed over is lost too_large, the others go on', { timeout: 20_000 }, async () => {
    const first = await serve(0);
    const client = await connect(first, { reconnect: { retries: 8, delayMs: 20 } });
    let reconnects = 0;
    client.onReconnect(() => reconnects++);
    const [a, b] = [await client.start({ task: ASTROID.task }), await client.start({ task: ASTROID.task })];
    for (const i of [...SMALL, BIG]) await a.step(steps[i]);
    await b.step(steps[SMALL[0]]);
    await servers[0]!.close();
    const during = a.step(steps[SMALL[0]]);
    await serve(Number(new URL(first).port), { limits: { maxFrameBytes: LIMIT } });
    // Resumed, unknown to the new server, started again: its step 2 sent again is over 8x the new limit.
    await expect(within(during, 8_000, () => `${reconnects} reconnects`)).rejects.toMatchObject({
      code: 'too_large',
      session: a.id,
      message: expect.stringMatching(/^step 2 of session .* restarted server\): .*1009/) as unknown,
    });
    expect(a.done).toBe(true);
    expect((await b.step(steps[SMALL[1]])).map((f) => [f.seq, f.t])).toEqual([[1, 1]]);
    expect((await b.end()).steps).toBe(2);
    expect(reconnects).toBeLessThanOrEqual(3);
    await client.close();
  });
});
