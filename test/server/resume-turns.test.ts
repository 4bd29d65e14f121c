/**
 * A resume re-sends every frame after `after`: of a long session, thousands, and a client may pipeline many
 * resumes on many connections. Sent in one go, 8 connections pipelining 64 resumes of one 5,000-step session held
 * every other client's ping over 8 s. Now a resume sends at most RESUME_FRAMES_PER_TURN frames a turn, the rest in
 * the next turns, and the connection's later messages wait for it. Asserted as counts: the most frames the server
 * wrote in one turn, and every resume's frames, complete and in order.
 */
import type { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { RESUME_FRAMES_PER_TURN } from '../../src/server/stream-handler.js';
import { Client, useApp, type Frame } from './helpers.js';

const STEPS = 1500;
const RESUMES = 4;
const app = useApp();

const step = (i: number) => ({ t: i, tool: 'bash', action: { kind: 'shell', command: `ls dir${i % 40}` }, observation: 'a.py' });

describe('resuming a long session', () => {
  it('sends its frames a slice a turn, every resume complete and in order', async () => {
    const owner = await Client.connect(app().wsUrl);
    owner.send({ type: 'start', session: 'long', task: 'resume-turns' });
    await owner.nextOf('started');
    for (let i = 0; i < STEPS; i++) owner.send({ type: 'step', session: 'long', seq: i, step: step(i) });
    owner.send({ type: 'ping' });
    await owner.nextOf('pong', undefined, 60_000);
    const sent = owner.frames.filter((f) => f.type === 'score' || f.type === 'signal');
    owner.ws.close();

    const client = await Client.connect(app().wsUrl);
    const sockets = [...(app().app.websocketServer.clients as Set<WebSocket>)];
    const socket = sockets[sockets.length - 1]!;
    let inTurn = 0;
    let most = 0;
    socket.on('message', () => undefined); // the server's side of `client`
    const send = socket.send.bind(socket);
    socket.send = ((...args: Parameters<WebSocket['send']>) => {
      if (inTurn++ === 0) setImmediate(() => (inTurn = 0));
      most = Math.max(most, inTurn);
      send(...args);
    }) as WebSocket['send'];
    for (let r = 0; r < RESUMES; r++) client.send({ type: 'resume', session: 'long', after: -1 });
    client.send({ type: 'ping' });
    await client.nextOf('pong', undefined, 60_000);

    // Each resume: `resumed`, then every frame sent, in order; the ping, sent after them, is answered after them.
    const got = client.frames.filter((f) => f.type !== 'pong');
    const one = [{ type: 'resumed', session: 'long', last: STEPS - 1 } as Frame, ...sent];
    expect(sent.length).toBeGreaterThan(RESUME_FRAMES_PER_TURN * 2);
    expect(got).toEqual(Array.from({ length: RESUMES }, () => one).flat());
    // At most two slices a turn (a resume's last and, once it is done, the next one's first, with its `resumed`):
    // before, all 4 x 1,500 frames went in one turn.
    expect(most).toBeLessThanOrEqual(2 * (RESUME_FRAMES_PER_TURN + 1));
    client.ws.close();
  }, 120_000);
});
