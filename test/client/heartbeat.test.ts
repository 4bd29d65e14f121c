/**
 * Review s44: a link that goes dead without a close (the server's host gone, a partition) held every pending call
 * for good, reconnect or not: the client never pinged, so it never learnt the socket was dead. It now pings
 * (`heartbeatMs`) and drops a socket whose ping goes unanswered: reconnected and resumed, or failed `disconnected`.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/client/index.js';
import type { Step } from '../../src/core/types.js';
import { ASTROID, readSteps, useApp } from '../server/helpers.js';

const app = useApp();
let steps: Step[];
/** A TCP relay to the server whose links can be cut: from then on a link drops all bytes both ways and never closes. */
let relay: net.Server;
const links: Array<{ cut: boolean }> = [];
let url: string;

beforeAll(async () => {
  steps = await readSteps(ASTROID.fail);
  const { port } = new URL(app().url);
  relay = net.createServer((down) => {
    const up = net.connect(Number(port), '127.0.0.1');
    const link = { cut: false };
    links.push(link);
    down.on('data', (d) => void (link.cut || up.write(d)));
    up.on('data', (d) => void (link.cut || down.write(d)));
    for (const [a, b] of [
      [down, up],
      [up, down],
    ] as const) {
      a.on('error', () => undefined);
      a.on('close', () => void (link.cut || b.destroy()));
    }
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(relay.address() as net.AddressInfo).port}`;
});
afterAll(() => relay.close());

const cutAll = (): void => void links.forEach((l) => (l.cut = true));

describe('a dead link that never closes', () => {
  it('with reconnect: the unanswered ping drops it, the client reconnects and the pending step is answered', { timeout: 10_000 }, async () => {
    const client = await connect(url, { reconnect: { retries: 3, delayMs: 20 }, heartbeatMs: 100 });
    const session = await client.start({ task: ASTROID.task });
    await session.step(steps[0]);
    cutAll();
    expect((await session.step(steps[1])).map((f) => [f.seq, f.t])).toEqual([[1, 1]]);
    expect((await session.end()).steps).toBe(2);
    await client.close();
  });

  it('without reconnect: the pending step fails disconnected', { timeout: 10_000 }, async () => {
    const client = await connect(url, { heartbeatMs: 100 });
    const session = await client.start({ task: ASTROID.task });
    cutAll();
    await expect(session.step(steps[0])).rejects.toMatchObject({ code: 'disconnected' });
  });

  // Four beats. The server, the relay and the client share this process: a ping's round trip takes several turns of
  // its event loop, which a loaded machine (CI on Node 24, 50 ms beats) stretched past a beat.
  it('a live but quiet link is kept', { timeout: 10_000 }, async () => {
    const client = await connect(url, { reconnect: { retries: 3, delayMs: 20 }, heartbeatMs: 250 });
    let reconnects = 0;
    client.onReconnect(() => reconnects++);
    const socket = client.socket;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(client.socket).toBe(socket);
    expect(reconnects).toBe(0);
    await client.close();
  });
});
