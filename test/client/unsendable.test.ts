/**
 * Review s44: a payload JSON cannot carry (a cycle, a BigInt) made `step()` throw a TypeError past its promise, and
 * made `start()` reject with one while keeping the start: its id stayed taken (`duplicate_session` on this client),
 * and the next reconnect threw re-sending it, which closed the client and lost every session on it. Both now
 * reject `bad_message` naming the message, keeping nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/client/index.js';
import type { Step } from '../../src/core/types.js';
import { ASTROID, readSteps, useApp } from '../server/helpers.js';

const app = useApp();
let steps: Step[];

beforeAll(async () => {
  steps = await readSteps(ASTROID.fail);
});

describe('a message JSON cannot carry', () => {
  it('step() rejects bad_message (not a throw) and its seq goes to the next step', async () => {
    const client = await connect(app().url);
    const session = await client.start({ task: ASTROID.task });
    const cycle: Record<string, unknown> = { ...steps[0] };
    cycle.self = cycle;
    let answer: Promise<unknown> | undefined;
    expect(() => (answer = session.step(cycle))).not.toThrow();
    await expect(answer).rejects.toMatchObject({
      code: 'bad_message',
      session: session.id,
      seq: 0,
      message: expect.stringMatching(/^step: cannot be sent as JSON \(Converting circular structure to JSON\)$/) as unknown,
    });
    expect(() => (answer = session.step({ ...steps[0], n: 1n }))).not.toThrow();
    await expect(answer).rejects.toMatchObject({ code: 'bad_message', seq: 0 });
    expect((await session.step(steps[0])).map((f) => [f.seq, f.t])).toEqual([[0, 0]]);
    await client.close();
  });

  it('start() rejects bad_message and keeps nothing: the id is free, and a reconnect does not lose the client', async () => {
    const client = await connect(app().url, { reconnect: { retries: 3, delayMs: 20 } });
    const session = await client.start({ task: ASTROID.task });
    await expect(client.start({ task: ASTROID.task, session: 'bigint', policy: { blindRetry: { warn: 2n as unknown as number } } })).rejects.toMatchObject({
      code: 'bad_message',
      session: 'bigint',
      message: expect.stringMatching(/^start: cannot be sent as JSON/) as unknown,
    });
    const again = await client.start({ task: ASTROID.task, session: 'bigint' });
    for (const ws of app().app.websocketServer.clients) ws.terminate();
    expect((await session.step(steps[0])).map((f) => f.seq)).toEqual([0]);
    expect((await again.step(steps[0])).map((f) => f.seq)).toEqual([0]);
    expect(client.closed).toBe(false);
    await client.close();
  });
});
