import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Socket } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { OPEN_TIMEOUT_MS, openSocket } from '../../src/client/socket.js';
import { CLOSE_TIMEOUT_MS } from '../../src/client/socket.js';
import { connect, SteplensClientError, streamUrl } from '../../src/client/index.js';
import { dataText } from '../../src/client/frames.js';
import { ASTROID, readSteps, useApp } from '../server/helpers.js';

const app = useApp({ tokens: ['tok'] });
const fakes: WebSocketServer[] = [];

afterEach(async () => {
  for (const wss of fakes.splice(0)) {
    for (const c of wss.clients) c.terminate();
    await new Promise((r) => wss.close(r));
  }
});

/** A fake server on 127.0.0.1:0 that answers every client message with `reply(message)`. */
async function fake(reply: (message: { type: string; session?: string }) => string): Promise<string> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  fakes.push(wss);
  await new Promise((r) => wss.once('listening', r));
  wss.on('connection', (ws) => ws.on('message', (data) => ws.send(reply(JSON.parse(dataText(data)) as { type: string }))));
  const { port } = wss.address() as { port: number };
  return `ws://127.0.0.1:${port}/v1/stream`;
}

describe('client transport', () => {
  it('sends the bearer token, and names what is wrong when it cannot connect', async () => {
    const client = await connect(app().url, { token: 'tok' });
    await client.ping();
    const session = await client.start({ task: ASTROID.task });
    expect(await session.step((await readSteps(ASTROID.fail))[0])).toHaveLength(1);
    await client.close();
    await expect(connect(app().url)).rejects.toMatchObject({ code: 'unauthorized', message: expect.stringMatching(/HTTP 401/) });
    await expect(connect(app().url, { token: 'nope' })).rejects.toBeInstanceOf(SteplensClientError);
    // audit19: the reason in words beside the code (was a bare 'ECONNREFUSED', which `replay` printed as is).
    await expect(connect('http://127.0.0.1:1')).rejects.toMatchObject({
      code: 'unreachable',
      message: 'cannot reach ws://127.0.0.1:1/v1/stream: connection refused (ECONNREFUSED: no server listening at that address and port?)',
    });
    await expect(connect('ftp://x')).rejects.toMatchObject({ code: 'bad_url' });
    expect(streamUrl('https://h:1')).toBe('wss://h:1/v1/stream');
    expect(streamUrl('ws://h:1/custom')).toBe('ws://h:1/custom');
    // A server behind a proxy under a path: /v1/stream goes under it (before, http://h:1/steplens streamed at ws://h:1/steplens).
    expect(streamUrl('http://h:1/steplens')).toBe('ws://h:1/steplens/v1/stream');
    expect(streamUrl('https://h/a/b/')).toBe('wss://h/a/b/v1/stream');
    expect(streamUrl('http://h:1/v1/stream')).toBe('ws://h:1/v1/stream');
    expect(streamUrl('ws://h:1')).toBe('ws://h:1/v1/stream');
  });

  it('rejects pending calls with bad_frame, naming the field, when the server sends a malformed frame', async () => {
    const url = await fake((m) => (m.type === 'ping' ? JSON.stringify({ type: 'pong' }) : JSON.stringify({ type: 'started', session: m.session, task: 7 })));
    const client = await connect(url);
    const errors: unknown[] = [];
    client.onError((e) => errors.push(e));
    const refused = await client.start({ task: 't' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'bad_frame', message: expect.stringMatching(/malformed frame: type "started": frame\.task/) });
    expect(errors).toEqual([refused]);
    await client.ping();
    await client.close();
  });

  it('rejects with bad_frame on a frame that is not JSON, and refuses oversized steps locally', async () => {
    const url = await fake(() => 'not json');
    const client = await connect(url, { maxFrameBytes: 64 });
    await expect(client.ping()).rejects.toMatchObject({ code: 'bad_frame', message: expect.stringMatching(/invalid JSON/) });
    await client.close();
    const real = await connect(app().url, { token: 'tok', maxFrameBytes: 200 });
    const session = await real.start({ task: ASTROID.task });
    await expect(session.step({ observation: 'x'.repeat(500) })).rejects.toMatchObject({ code: 'too_large', seq: 0 });
    await real.close();
  });

  it('turns a throwing listener into an onError report instead of an uncaught exception', async () => {
    const client = await connect(app().url, { token: 'tok' });
    const errors: unknown[] = [];
    client.onError((e) => errors.push(e));
    const session = await client.start({ task: ASTROID.task });
    session.onScore(() => {
      throw new Error('listener bug');
    });
    const [frame] = await session.step((await readSteps(ASTROID.fail))[0]);
    expect(frame?.t).toBe(0);
    expect(errors).toEqual([new Error('listener bug')]);
    await client.close();
  });

  it('rejects end() when the server refuses the end (store unreachable), and a later end() sends it again', async () => {
    // A real final, from the real server, for the fake to answer the second end with.
    const real = await connect(app().url, { token: 'tok' });
    const realFinal = await (await real.start({ task: ASTROID.task })).end();
    await real.close();
    let ends = 0;
    const url = await fake((m) => {
      if (m.type === 'start') return JSON.stringify({ type: 'started', session: m.session, task: 't', format: 'steplens', reference: realFinal.reference });
      if (m.type === 'end' && ++ends === 1) return JSON.stringify({ type: 'error', code: 'unavailable', message: 'not accepted: the shared store is unreachable', session: m.session });
      if (m.type === 'end') return JSON.stringify({ ...realFinal, session: m.session });
      return JSON.stringify({ type: 'pong' });
    });
    const client = await connect(url);
    const session = await client.start({ task: 't' });
    await expect(session.end()).rejects.toMatchObject({ code: 'unavailable', session: session.id });
    const final = await session.end();
    expect(final).toMatchObject({ type: 'final', session: session.id });
    expect(ends).toBe(2);
    await client.close();
  });

  it('gives up an opening handshake the server never answers (TCP taken, no upgrade) as unreachable', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as { port: number };
      await expect(openSocket(WebSocket, `ws://127.0.0.1:${port}/v1/stream`, undefined, 200)).rejects.toMatchObject({
        code: 'unreachable',
        message: expect.stringMatching(/handshake has timed out/),
      });
      expect(OPEN_TIMEOUT_MS).toBe(10_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('close() does not wait on a server that stopped answering (TCP up, nothing read) beyond CLOSE_TIMEOUT_MS', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    fakes.push(wss);
    await new Promise((r) => wss.once('listening', r));
    // The peer answers the upgrade and then never reads again: no close frame is ever answered.
    wss.on('connection', (ws) => (ws as unknown as { _socket: Socket })._socket.pause());
    const client = await connect(`ws://127.0.0.1:${(wss.address() as { port: number }).port}/v1/stream`);
    const outcome = await Promise.race([client.close().then(() => 'closed'), new Promise((resolve) => setTimeout(() => resolve('still closing'), CLOSE_TIMEOUT_MS + 5_000))]);
    expect(outcome).toBe('closed');
  });
});
