/**
 * Issue 25, connections: half-sent requests are cut after the header and request timeouts (in the
 * catalogue's shape) and do not hold a shutdown; a half-open WebSocket (no pong) is closed and its sessions
 * stay resumable; one address holds a bounded share of the connections, so a slowloris under an fd limit of
 * 1,024 neither resets other clients' WebSocket connects nor makes scoring fail.
 */
import net from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer } from '../../bench/drills/spawn-server.js';
import type { Step } from '../../src/core/types.js';
import { closeRunning, ASTROID, Client, readSteps, removeDir, startApp, tempDir, type Running } from './helpers.js';

let dir: string;
let steps: Step[];
const running: Running[] = [];
const sockets: net.Socket[] = [];

beforeAll(async () => {
  dir = await tempDir();
  steps = await readSteps(ASTROID.passA);
});
afterAll(async () => {
  await closeRunning(running, sockets);
  await removeDir(dir);
});

/** A raw TCP connection from `localAddress`, collecting what the server writes; `ended` resolves when the server closes it. */
function raw(url: string, localAddress = '127.0.0.1'): Promise<{ socket: net.Socket; received: () => string; ended: Promise<void> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port), localAddress });
    sockets.push(socket);
    let text = '';
    socket.on('data', (d) => (text += d.toString()));
    const ended = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, received: () => text, ended }));
    socket.once('error', reject);
  });
}

const halfSentPost = (length = 100_000): string => `POST /v1/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{"task": "t", "traj`;

const within = <T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> => Promise.race([promise, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms))]);

describe('connections', () => {
  it('cuts a half-sent body and slow headers after their timeouts, answering in the catalogue shape', async () => {
    const r = await startApp({ dataDir: `${dir}/timeouts`, limits: { headersTimeoutMs: 300, requestTimeoutMs: 800 } });
    running.push(r);
    const body = await raw(r.url);
    body.socket.write(halfSentPost());
    const headers = await raw(r.url);
    headers.socket.write('POST /v1/score HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(await within(headers.ended, 5000)).toBeUndefined();
    expect(await within(body.ended, 5000)).toBeUndefined();
    for (const c of [body, headers]) {
      expect(c.received()).toMatch(/^HTTP\/1\.1 400 /);
      expect(c.received()).toContain('{"error":{"code":"bad_message","message":"request not received in time');
    }
    // Without a token the body is refused (401) at once, and the connection is still not held.
    const locked = await startApp({ dataDir: `${dir}/locked`, tokens: ['s3cret'], limits: { headersTimeoutMs: 300, requestTimeoutMs: 800 } });
    running.push(locked);
    const anon = await raw(locked.url);
    anon.socket.write(halfSentPost());
    expect(await within(anon.ended, 5000)).toBeUndefined();
    expect(anon.received()).toMatch(/^HTTP\/1\.1 401 /);
  });

  it('completes a shutdown with half-sent bodies open (cut after the grace period)', async () => {
    const r = await startApp({ dataDir: `${dir}/shutdown`, limits: { shutdownGraceMs: 500 } });
    const open = await Promise.all([1, 2, 3, 4].map(() => raw(r.url)));
    for (const c of open) c.socket.write(halfSentPost());
    await new Promise((resolve) => setTimeout(resolve, 100));
    const began = Date.now();
    expect(await within(r.app.close(), 10_000)).toBeUndefined();
    expect(Date.now() - began).toBeLessThan(5000);
    for (const c of open) expect(await within(c.ended, 1000)).toBeUndefined();
  });

  it('closes a half-open WebSocket (no pong to its ping); its session stays resumable', async () => {
    const r = await startApp({ dataDir: `${dir}/heartbeat`, limits: { wsPingIntervalMs: 150 } });
    running.push(r);
    const silent = new WebSocket(r.wsUrl, { autoPong: false });
    await new Promise((resolve) => silent.once('open', resolve));
    const closed = new Promise<number>((resolve) => silent.once('close', (code) => resolve(code)));
    silent.send(JSON.stringify({ type: 'start', session: 'half-open', task: ASTROID.task }));
    silent.send(JSON.stringify({ type: 'step', session: 'half-open', seq: 0, step: steps[0] }));
    expect(await within(closed, 5000)).not.toBe('timeout');
    // A client that answers pings stays connected across many of them.
    const alive = await Client.connect(r.wsUrl);
    await new Promise((resolve) => setTimeout(resolve, 600));
    alive.send({ type: 'resume', session: 'half-open', after: -1 });
    expect(await alive.nextOf('resumed', 'half-open')).toMatchObject({ last: 0 });
    expect(alive.closed).toBeUndefined();
    alive.close();
  });

  it('bounds the connections of one address: the one past the cap gets 503 overloaded, other clients are served', async () => {
    const r = await startApp({ dataDir: `${dir}/caps`, limits: { connectionsPerAddress: 5 } });
    running.push(r);
    const held = await Promise.all([1, 2, 3, 4, 5].map(() => raw(r.url, '127.0.0.2')));
    for (const c of held) c.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const over = await raw(r.url, '127.0.0.2');
    expect(await within(over.ended, 3000)).toBeUndefined();
    expect(over.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(over.received()).toContain('"code":"overloaded"');
    expect(over.received()).toContain('5 connections, the limit per client');
    const other = await Client.connect(r.wsUrl);
    other.send({ type: 'start', session: 'other', task: ASTROID.task });
    expect(await other.nextOf('started', 'other')).toMatchObject({ session: 'other' });
    other.close();
    // Once one of them closes, the address may connect again.
    held[0]!.socket.destroy();
    await held[0]!.ended;
    await new Promise((resolve) => setTimeout(resolve, 200)); // the server sees the close a moment later
    const again = await raw(r.url, '127.0.0.2');
    again.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(again.received()).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('under an fd limit of 1,024, a slowloris of 1,100 connections from one address leaves other clients served (needs npm run build)', async () => {
    const server = await spawnServer(['--data', `${dir}/fd`, '--no-seed'], { fdLimit: 1024 });
    try {
      const attack = await Promise.allSettled(Array.from({ length: 1100 }, () => raw(server.http, '127.0.0.2')));
      for (const a of attack) if (a.status === 'fulfilled') a.value.socket.write('POST /v1/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\n\r\n{');
      const connects = await Promise.allSettled(Array.from({ length: 20 }, () => Client.connect(server.ws)));
      expect(connects.filter((c) => c.status === 'rejected')).toEqual([]);
      const c = (connects[0] as PromiseFulfilledResult<Client>).value;
      c.send({ type: 'start', session: 'victim', task: ASTROID.task });
      await c.nextOf('started', 'victim');
      c.send({ type: 'step', session: 'victim', seq: 0, step: steps[0] });
      expect(await c.nextOf('score', 'victim')).toMatchObject({ seq: 0 });
      const scored = await fetch(`${server.http}/v1/score`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ task: ASTROID.task, trajectory: steps }) });
      expect(scored.status).toBe(200);
      for (const x of connects) if (x.status === 'fulfilled') x.value.close();
    } finally {
      server.proc.kill('SIGKILL');
      await server.exited;
    }
  }, 120_000);
});
