// Another tenant's pings (T112): GET /healthz with alice's token every 10 ms for S seconds, one at a time, keep-alive.
// node ping.mjs BASE_URL S; prints n, p50, p99, max in ms.
import http from 'node:http';
import { setTimeout } from 'node:timers';
const [base, s] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const end = Date.now() + Number(s) * 1000;
const times = [];
const get = () =>
  new Promise((resolve) => {
    const t = process.hrtime.bigint();
    const req = http.get(`${base}/healthz`, { agent, headers: { authorization: 'Bearer alice' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(Number(process.hrtime.bigint() - t) / 1e6));
    });
    req.on('error', () => resolve(undefined));
  });
while (Date.now() < end) {
  const ms = await get();
  if (ms !== undefined) times.push(ms);
  await new Promise((r) => setTimeout(r, 10));
}
times.sort((a, b) => a - b);
const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))]?.toFixed(1);
console.log(JSON.stringify({ n: times.length, p50: q(0.5), p99: q(0.99), max: times.at(-1)?.toFixed(1) }));
agent.destroy();
