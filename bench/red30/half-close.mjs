// T123: bob's clients that half-close (send FIN, never read) at a SIGTERM: K streams that sent 200 steps each,
// K scoring bodies sent in part (a 16 MiB content-length, 1 MiB sent), K step-view GETs never read; then SIGTERM.
// node half-close.mjs DIST PORT K; prints how long the server took to exit and the kernel's orphans before and after.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { session, stream } from '../red28/lib.mjs';
const { fetch } = globalThis;
const [dist, port, k] = process.argv.slice(2);
const here = path.dirname(fileURLToPath(import.meta.url));
const orphans = () => Number(/orphan (\d+)/.exec(readFileSync('/proc/net/sockstat', 'utf8'))[1]);
const srv = spawn(process.execPath, [path.join(here, 'srv-term.mjs'), dist, port], { stdio: ['ignore', 'pipe', 'inherit'] });
let out = '';
srv.stdout.on('data', (d) => (out += d));
while (!out.includes('listening')) await setTimeout(100);
const seed = await stream(`ws://127.0.0.1:${port}/v1/stream`, 'bob');
await session(seed, { session: 'big', task: 't' }, 3000);
const raw = (text) => {
  const s = net.connect({ port: Number(port), host: '127.0.0.1' });
  s.setNoDelay(true);
  s.on('error', () => undefined);
  s.write(text);
  return s;
};
const socks = [];
const stepsSent = [];
for (let i = 0; i < Number(k); i++) {
  const s = await stream(`ws://127.0.0.1:${port}/v1/stream`, 'bob');
  s.send({ type: 'start', session: `h${i}`, task: 't' });
  await s.next((f) => f.type === 'started');
  for (let t = 0; t < 200; t++) s.send({ type: 'step', session: `h${i}`, seq: t, step: { t, tool: 'bash', action: { kind: 'shell', command: `cat f${t}.py` }, observation: 'ok' } });
  stepsSent.push(200);
  s.ws._socket.end(); // FIN after the steps, still reading nothing more
  socks.push(s.ws._socket);
  const body = raw(
    `POST /v1/score HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer bob\r\ncontent-type: application/json\r\ncontent-length: ${16 << 20}\r\n\r\n{"trajectory":"${'x'.repeat(1 << 20)}`,
  );
  body.end();
  body.pause();
  socks.push(body);
  const view = raw(`GET /v1/sessions/big/steps HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer bob\r\n\r\n`);
  view.end();
  view.pause();
  socks.push(view);
}
await setTimeout(1000);
const before = orphans();
const t = Date.now();
srv.kill('SIGTERM');
const code = await new Promise((r) => srv.on('exit', r));
const exitMs = Date.now() - t;
await setTimeout(500);
for (const s of socks) s.destroy();
// With Redis: the steps each half-closed stream's session kept in the journal, read by a second server.
const kept = {};
if (process.env.REDIS_URL) {
  const again = spawn(process.execPath, [path.join(here, 'srv-term.mjs'), dist, port], { stdio: ['ignore', 'pipe', 'inherit'] });
  let o2 = '';
  again.stdout.on('data', (d) => (o2 += d));
  while (!o2.includes('listening')) await setTimeout(100);
  for (let i = 0; i < Number(k); i++) {
    const res = await fetch(`http://127.0.0.1:${port}/v1/sessions/h${i}`, { headers: { authorization: 'Bearer bob' } });
    const steps = res.ok ? (await res.json()).steps : res.status;
    kept[steps] = (kept[steps] ?? 0) + 1;
  }
  again.kill('SIGTERM');
}
console.log(JSON.stringify({ k: Number(k), code, closed: out.match(/closed (\d+)/)?.[1], exitMs, orphansBefore: before, orphansAfter: orphans(), sent: 200, kept }));
process.exit(0);
