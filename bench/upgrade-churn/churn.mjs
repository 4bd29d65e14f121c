// A client reconnecting in a loop (T112): K loops, each opening /v1/stream with TOKEN and closing it once open, at
// most RATE attempts a second a loop (0: as fast as answers come), refused upgrades retried the same way, for S seconds.
// Each loop's first stream starts a session, every later one resumes it (an agent's reconnect) and closes once answered.
// node churn.mjs URL TOKEN S K RATE; prints opened and refused.
import { setTimeout } from 'node:timers';
import WebSocket from 'ws';
const [url, token, s, k, rate] = process.argv.slice(2);
const end = Date.now() + Number(s) * 1000;
const gap = Number(rate) > 0 ? 1000 / Number(rate) : 0;
let opened = 0;
let refused = 0;
let other = 0;
const started = new Set();
const once = (i) =>
  new Promise((resolve) => {
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
    const session = `churn-${process.pid}-${i}`;
    ws.on('open', () => {
      opened++;
      ws.send(JSON.stringify(started.has(i) ? { type: 'resume', session, after: 0 } : { type: 'start', session, task: 'churn' }));
    });
    ws.on('message', (data) => {
      const type = JSON.parse(data.toString()).type;
      if (type === 'started') started.add(i);
      if (type === 'started' || type === 'resumed' || type === 'error') ws.close();
    });
    ws.on('unexpected-response', (_req, res) => {
      if (res.statusCode === 429) refused++;
      else other++;
      res.resume();
      res.socket.destroy();
      resolve();
    });
    ws.on('close', resolve);
    ws.on('error', () => {
      other++;
      resolve();
    });
  });
async function loop(_, i) {
  while (Date.now() < end) {
    const t = Date.now();
    await once(i);
    const wait = gap - (Date.now() - t);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
}
await Promise.all(Array.from({ length: Number(k) }, loop));
console.log(JSON.stringify({ opened, refused, other, perSecond: +((opened + refused) / Number(s)).toFixed(1) }));
