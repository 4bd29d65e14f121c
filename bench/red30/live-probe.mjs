// T122: the live feed under bob (from 127.0.0.1; alice from 127.0.0.2): alice's session by id (with and without ?tenant=alice), and bob's N viewers of
// his own open session at once, none of them reading. node live-probe.mjs PORT PID N; prints statuses and RSS.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { session, stream } from '../red28/lib.mjs';
const [port, pid, n] = process.argv.slice(2);
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const a = await stream(`ws://127.0.0.1:${port}/v1/stream`, 'alice');
a.send({ type: 'start', session: 'a-open', task: 't' });
await a.next((f) => f.type === 'started');
const b = await stream(`ws://127.0.0.1:${port}/v1/stream`, 'bob');
await session(b, { session: 'b-done', task: 't' }, 500);
b.send({ type: 'start', session: 'b-open', task: 't' });
await b.next((f) => f.type === 'started');
// Raw sockets with a small receive buffer that never read: the status line is peeked from the first bytes only.
const open = (path, token, localAddress = '127.0.0.1') =>
  new Promise((resolve) => {
    const s = net.connect({ port: Number(port), host: '127.0.0.1', localAddress }, () => s.write(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${token}\r\n\r\n`));
    s.once('data', (d) => {
      s.pause();
      resolve({ s, status: Number(d.toString('latin1').split(' ')[1]) });
    });
    s.on('error', () => resolve({ s, status: 'error' }));
  });
const cross = [];
for (const q of ['/v1/live?session=a-open', '/v1/live?session=a-open&tenant=alice', '/v1/live?tenant=alice']) {
  const r = await open(q, 'bob');
  cross.push([q, r.status]);
  r.s.destroy();
}
console.log(JSON.stringify({ cross }));
const before = rss();
const viewers = [];
for (let i = 0; i < Number(n); i++) viewers.push(await open(`/v1/live?session=${i % 2 ? 'b-open' : 'b-done'}`, 'bob'));
const byStatus = {};
for (const v of viewers) byStatus[v.status] = (byStatus[v.status] ?? 0) + 1;
// Bob's open session moves on while the 200s hold unread feeds; alice still opens one of her own.
for (let i = 0; i < 3000; i++) b.send({ type: 'step', session: 'b-open', seq: i, step: { t: i, tool: 'bash', action: { kind: 'shell', command: `cat f${i}.py` }, observation: 'x'.repeat(400) } });
await b.next((f) => f.type === 'score' && f.seq === 2999, 300_000);
const mine = await open('/v1/live?session=a-open', 'alice', '127.0.0.2');
console.log(JSON.stringify({ viewers: Number(n), byStatus, aliceOwn: mine.status, rssBeforeMB: before.toFixed(0), rssAfterMB: rss().toFixed(0) }));
process.exit(0);
