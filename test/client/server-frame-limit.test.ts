/**
 * T64: a frame from the server over the client's `maxServerFrameBytes` (`ws`' `maxPayload`). `ws` refuses it unread
 * and drops the connection, which the client reported as `closed (1006)`; with `reconnect` on it resumed the session,
 * the server sent the frame again, and the client reconnected again, for good. Here the frame is a real session's
 * `final`, the only frame of the run over a limit set just above all the others.
 */
import { describe, expect, it } from 'vitest';
import { connect } from '../../src/client/index.js';
import { DEFAULT_MAX_SERVER_FRAME_BYTES, serverFrameLimit } from '../../src/client/server-frame-limit.js';
import type { Step } from '../../src/core/types.js';
import { ASTROID, readSteps, useApp } from '../server/helpers.js';
import { useRelays } from './relay.js';

const app = useApp();
const relay = useRelays(() => app().wsUrl);

/** A relay counting its connections and keeping the size of every server frame it passes on. */
async function countingRelay(): Promise<{ url: string; connections: () => number; sizes: Array<{ type: string; bytes: number }> }> {
  let connections = 0;
  const sizes: Array<{ type: string; bytes: number }> = [];
  const url = await relay(() => {
    connections++;
    return { fromServer: (text) => sizes.push({ type: (JSON.parse(text) as { type: string }).type, bytes: Buffer.byteLength(text) }) };
  });
  return { url, connections: () => connections, sizes };
}

/** Starts a session on `url`, sends `steps` and ends it; the end's answer or error. */
async function run(url: string, id: string, steps: Step[], options: Parameters<typeof connect>[1]) {
  const client = await connect(url, options);
  const session = await client.start({ task: ASTROID.task, session: id });
  for (const step of steps) await session.step(step);
  const end = await session.end().catch((e: unknown) => e);
  return { client, session, end };
}

describe('a server frame over maxServerFrameBytes', () => {
  it('fails the client with one too_large naming the limit and the option, and is not asked for again', { timeout: 30_000 }, async () => {
    const steps = (await readSteps(ASTROID.fail)).slice(0, 4);
    // The same session once within the default limit: the final is its largest frame.
    const seen = await countingRelay();
    const ok = await run(seen.url, 'within-limit', steps, {});
    expect(ok.end).toMatchObject({ type: 'final', steps: 4 });
    await ok.client.close();
    const final = seen.sizes.find((s) => s.type === 'final')!.bytes;
    const limit = Math.max(...seen.sizes.filter((s) => s.type !== 'final').map((s) => s.bytes)) + 1;
    expect(final).toBeGreaterThan(limit);

    // Again under a limit just above every frame but the final, reconnect on (a resume would have the final sent again).
    const h = await countingRelay();
    const { client, session, end } = await run(h.url, 'over-limit', steps, { maxServerFrameBytes: limit, reconnect: { retries: 3, delayMs: 10 } });
    expect(end).toMatchObject({ code: 'too_large', message: expect.stringContaining(`sent a frame over the client's limit of ${limit} bytes (maxServerFrameBytes of connect)`) });
    expect((end as Error).message).toMatch(/connect with a larger maxServerFrameBytes to receive it$/);
    expect(session.scores).toHaveLength(4);
    expect(client.closed).toBe(true);
    // Later calls get the same error, and the client did not reconnect.
    await expect(client.start({ task: ASTROID.task })).rejects.toBe(end);
    await new Promise((r) => setTimeout(r, 100));
    expect(h.connections()).toBe(1);
    await client.close();
  });

  it('maxServerFrameBytes is checked: 100 MiB by default, a whole number of bytes, anything else refused naming it', async () => {
    expect(serverFrameLimit(undefined)).toBe(DEFAULT_MAX_SERVER_FRAME_BYTES);
    expect(DEFAULT_MAX_SERVER_FRAME_BYTES).toBe(100 * 1024 * 1024);
    expect(serverFrameLimit(1)).toBe(1);
    for (const bad of [0, -1, 1.5, Number.NaN, Infinity, '5' as unknown as number]) {
      await expect(connect(app().url, { maxServerFrameBytes: bad })).rejects.toThrow(/^connect: maxServerFrameBytes must be a whole number of bytes, 1 or more/);
    }
  });
});
