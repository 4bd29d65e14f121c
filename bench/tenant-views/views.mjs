// Step views of two tenants (T115): bob's K loops each GET /v1/sessions/BIG/steps (read whole; a 429 retried at once),
// alice's GET /v1/sessions/SMALL/steps one at a time every 100 ms, for S seconds; prints alice's n, p50, p99, max (ms)
// and bob's views answered and refused. node views.mjs BASE_URL BIG SMALL K S
import { setTimeout } from 'node:timers/promises';
const { fetch } = globalThis;
const [base, big, small, k, s] = process.argv.slice(2);
const end = Date.now() + Number(s) * 1000;
const get = async (token, id) => {
  const res = await fetch(`${base}/v1/sessions/${id}/steps`, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  return res.status;
};
let answered = 0;
let refused = 0;
const bob = async () => {
  while (Date.now() < end) {
    const status = await get('bob', big).catch(() => 0);
    if (status === 200) answered++;
    else if (status === 429) {
      refused++;
      await setTimeout(5);
    }
  }
};
const times = [];
const alice = async () => {
  await setTimeout(1000);
  while (Date.now() < end) {
    const t = process.hrtime.bigint();
    if ((await get('alice', small)) === 200) times.push(Number(process.hrtime.bigint() - t) / 1e6);
    await setTimeout(100);
  }
};
await Promise.all([alice(), ...Array.from({ length: Number(k) }, bob)]);
times.sort((a, b) => a - b);
const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))]?.toFixed(0);
console.log(JSON.stringify({ alice: { n: times.length, p50: q(0.5), p99: q(0.99), max: times.at(-1)?.toFixed(0) }, bob: { answered, refused } }));
