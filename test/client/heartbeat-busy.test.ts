/**
 * A client whose own process was busy (a synchronous stretch longer than `heartbeatMs`) kept a live link: after the
 * stretch Node runs due timers before pending reads, so the beat saw its ping unanswered although the pong had
 * arrived, and dropped the socket. The server runs in a child process so that only the client's process is busy.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { heartbeat } from '../../src/client/heartbeat.js';

const wsPath = createRequire(import.meta.url).resolve('ws');
let server: ChildProcess;
let url: string;

beforeAll(async () => {
  // ws answers pings by itself; the child exits when its stdin closes (the test process gone).
  const code = `const { WebSocketServer } = require(${JSON.stringify(wsPath)});
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 }, () => console.log(wss.address().port));
process.stdin.on('close', () => process.exit(0)); process.stdin.resume();`;
  server = spawn(process.execPath, ['-e', code], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => server.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim())));
  url = `ws://127.0.0.1:${port}`;
});
afterAll(() => void server.kill());

const busy = (ms: number): void => {
  const until = Date.now() + ms;
  while (Date.now() < until);
};

it('a ping answered while the client was busy is counted before the verdict', { timeout: 10_000 }, async () => {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let pinged = 0;
  const ping = ws.ping.bind(ws);
  // After the first ping the process is busy for three beats: the pong arrives meanwhile and waits to be read.
  ws.ping = ((...args: Parameters<WebSocket['ping']>) => {
    ping(...args);
    if (pinged++ === 0) setImmediate(() => busy(300));
  }) as WebSocket['ping'];
  let closed = false;
  ws.once('close', () => (closed = true));
  heartbeat(ws, 100);
  await new Promise((resolve) => setTimeout(resolve, 700));
  expect(pinged).toBeGreaterThan(1);
  expect(closed).toBe(false);
  ws.close();
});
