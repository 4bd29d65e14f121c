// Round 28, item 2's timing: bob asks for alice's id and for a never-used one, alternated, N times each; p50 / p99
// of each (ms, client side, keep-alive). node timing.mjs BASE_URL N
import http from 'node:http';
const [base, n] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const get = (path) =>
  new Promise((resolve) => {
    const t = process.hrtime.bigint();
    http.get(`${base}${path}`, { agent, headers: { authorization: 'Bearer bob' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(Number(process.hrtime.bigint() - t) / 1e6));
    });
  });
const q = (xs, p) => xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))].toFixed(3);
for (const [name, a, f] of [
  ['GET /v1/sessions/:id', '/v1/sessions/a-ended', '/v1/sessions/never-1'],
  ['GET /v1/sessions/:id/steps', '/v1/sessions/a-ended/steps', '/v1/sessions/never-1/steps'],
  ['GET /v1/tasks/:task/pta', '/v1/tasks/only-a/pta?scope=tenant', '/v1/tasks/never-tsk/pta?scope=tenant'],
]) {
  const ta = [];
  const tf = [];
  for (let i = 0; i < Number(n); i++) {
    // Alternated, each first half the time.
    const first = i % 2 ? [ta, a] : [tf, f];
    const second = i % 2 ? [tf, f] : [ta, a];
    first[0].push(await get(first[1]));
    second[0].push(await get(second[1]));
  }
  console.log(`${name}: alice's id p50 ${q(ta, 0.5)} p99 ${q(ta, 0.99)} ms; never used p50 ${q(tf, 0.5)} p99 ${q(tf, 0.99)} ms (n ${n} each, alternated)`);
}
agent.destroy();
