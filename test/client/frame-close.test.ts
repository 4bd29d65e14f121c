/**
 * Review s44: a step over 8x the server's `maxFrameBytes` (ws's maxPayload) but under the client's limit is not
 * refused with an `error` frame: ws closes the socket with 1009. The client saw a drop like any other: without
 * reconnect every call failed `disconnected`; with it, it reconnected, sent the step again and was closed again,
 * for good (125 reconnects in 3 s), the step never settling. The client now rejects that step `too_large` (its
 * seq goes to the next step) and, with reconnect, the connection and its other sessions go on. Steps pipelined
 * after a refused one now reject `out_of_order` at once (their refusals by the server came after the caller's
 * new steps, and handed an accepted seq out again).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { connect, type ScoreFrame } from '../../src/client/index.js';
import type { Step } from '../../src/core/types.js';
import { ASTROID, readSteps, useApp } from '../server/helpers.js';

/** maxPayload 8 x 700 = 5,600 bytes: step 8 of the failing astroid run (5,674 bytes of JSON) is over it. */
const app = useApp({ limits: { maxFrameBytes: 700 } });
let steps: Step[];
/** Steps 24 and 25 of the same run fit under 700 bytes. */
const BIG = 8;
const SMALL = [24, 25] as const;

beforeAll(async () => {
  steps = await readSteps(ASTROID.fail);
  expect(JSON.stringify(steps[BIG]).length).toBeGreaterThan(8 * 700);
});

describe('a step so large that the server closes the socket (1009)', () => {
  it('with reconnect: rejects that step too_large once; the session and the others on the connection go on', { timeout: 10_000 }, async () => {
    const client = await connect(app().url, { reconnect: { retries: 3, delayMs: 20 } });
    let reconnects = 0;
    client.onReconnect(() => reconnects++);
    const [a, b] = [await client.start({ task: ASTROID.task }), await client.start({ task: ASTROID.task })];
    expect((await b.step(steps[SMALL[0]])).map((f) => f.seq)).toEqual([0]);
    await expect(a.step(steps[BIG])).rejects.toMatchObject({ code: 'too_large', session: a.id, seq: 0, message: expect.stringMatching(/over the server's limit .*1009/) as unknown });
    // The refused seq goes to the next step, sent once the client has reconnected.
    expect((await a.step(steps[SMALL[0]])).map((f) => [f.seq, f.t])).toEqual([[0, 0]]);
    expect((await b.step(steps[SMALL[1]])).map((f) => [f.seq, f.t])).toEqual([[1, 1]]);
    expect(reconnects).toBe(1);
    expect((await a.end()).steps).toBe(1);
    expect((await b.end()).steps).toBe(2);
    await client.close();
  });

  it('steps pipelined after it reject out_of_order at once: sent again with the next steps, none is taken for a duplicate', { timeout: 10_000 }, async () => {
    const client = await connect(app().url, { reconnect: { retries: 3, delayMs: 20 } });
    const unattributed: unknown[] = [];
    client.onError((e) => unattributed.push(e));
    const session = await client.start({ task: ASTROID.task });
    const big = session.step(steps[BIG]);
    const stale = SMALL.map((i) => session.step(steps[i]));
    // The caller sends them again as soon as the big one is refused, before the client has reconnected.
    const again = big.then(
      (): Array<Promise<ScoreFrame[]>> => [],
      () => SMALL.map((i) => session.step(steps[i])),
    );
    const settled = await Promise.allSettled(stale);
    expect(settled.map((r) => (r.status === 'rejected' ? (r.reason as { code: string; seq: number }) : r))).toMatchObject([
      { code: 'out_of_order', seq: 1 },
      { code: 'out_of_order', seq: 2 },
    ]);
    expect((await Promise.all(await again)).map((a) => a.map((f) => f.seq))).toEqual([[0], [1]]);
    // Before, the server's late out_of_order for the stale seq 1 handed seq 1 out again: this step went as a duplicate.
    expect((await session.step(steps[36])).map((f) => [f.seq, f.t])).toEqual([[2, 2]]);
    expect((await session.end()).steps).toBe(3);
    expect(unattributed).toEqual([]);
    await client.close();
  });

  it('without reconnect: that step rejects too_large (naming it), the rest disconnected', async () => {
    const client = await connect(app().url);
    const session = await client.start({ task: ASTROID.task });
    await expect(session.step(steps[BIG])).rejects.toMatchObject({ code: 'too_large', seq: 0 });
    await expect(session.step(steps[SMALL[0]])).rejects.toMatchObject({ code: 'disconnected' });
    await client.close();
  });
});
