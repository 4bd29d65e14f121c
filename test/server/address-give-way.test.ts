/**
 * T65: at `maxConnections`, the address holding the most gives way to a client of another address (connection-caps.ts,
 * address-table.ts). Before, a client spread over a few addresses (each within `connectionsPerAddress`) held every
 * connection and every other client got 503 `overloaded` for as long as it held them.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeRunning, removeDir, startApp, tempDir, type Running } from './helpers.js';

let dir: string;
const running: Running[] = [];
const sockets: net.Socket[] = [];

beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await closeRunning(running, sockets);
  await removeDir(dir);
});

interface Held {
  socket: net.Socket;
  received: () => string;
  closed: () => boolean;
}

/** A raw connection from `localAddress` that sends half a request (held until the header timeout, 10 s). */
function hold(url: string, localAddress: string): Promise<Held> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port), localAddress });
    sockets.push(socket);
    let text = '';
    let closed = false;
    socket.on('data', (d) => (text += d.toString()));
    socket.on('close', () => (closed = true));
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      resolve({ socket, received: () => text, closed: () => closed });
    });
    socket.once('error', reject);
  });
}

/** Resolves once the server counts `n` connections. */
async function serverHolds(r: Running, n: number): Promise<void> {
  for (;;) {
    const count = await new Promise<number>((resolve, reject) => r.app.server.getConnections((e, c) => (e ? reject(e) : resolve(c))));
    if (count === n) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One GET /healthz on a connection of its own from `localAddress`: the status line's code. */
async function ping(url: string, localAddress: string): Promise<number> {
  const c = await hold(url, localAddress);
  c.socket.write('\r\n');
  for (let i = 0; i < 100 && !/^HTTP\/1\.1 \d{3}/.test(c.received()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  c.socket.destroy();
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(c.received())?.[1] ?? 0);
}

async function app(name: string, limits: { maxConnections: number; connectionsPerAddress: number }): Promise<Running> {
  const r = await startApp({ dataDir: `${dir}/${name}`, limits });
  running.push(r);
  return r;
}

describe('the address holding the most gives way at the connection limit', () => {
  it("a client of another address is served and one of the heaviest address's connections is closed", async () => {
    const r = await app('heavy', { maxConnections: 8, connectionsPerAddress: 4 });
    const held = [];
    for (const a of ['127.0.0.2', '127.0.0.3']) for (let i = 0; i < 4; i++) held.push(await hold(r.url, a));
    await serverHolds(r, 8);
    expect(await ping(r.url, '127.0.0.9')).toBe(200);
    expect(held.filter((h) => h.closed())).toHaveLength(1);
    // With the newcomer gone, the address that gave way may take its place again; one still at its cap may not.
    await serverHolds(r, 7);
    expect(await ping(r.url, '127.0.0.3')).toBe(503);
    expect(await ping(r.url, '127.0.0.2')).toBe(200);
  });

  it('addresses holding as many do not push one another out', async () => {
    const r = await app('even', { maxConnections: 4, connectionsPerAddress: 4 });
    const held = [];
    for (const a of ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5']) held.push(await hold(r.url, a));
    await serverHolds(r, 4);
    expect(await ping(r.url, '127.0.0.6')).toBe(503);
    expect(held.filter((h) => h.closed())).toHaveLength(0);
  });

  it('behind a balancer (connectionsPerAddress 0) no address gives way', async () => {
    const r = await app('balancer', { maxConnections: 4, connectionsPerAddress: 0 });
    const held = [];
    for (let i = 0; i < 4; i++) held.push(await hold(r.url, '127.0.0.2'));
    await serverHolds(r, 4);
    expect(await ping(r.url, '127.0.0.6')).toBe(503);
    expect(held.filter((h) => h.closed())).toHaveLength(0);
  });
});
