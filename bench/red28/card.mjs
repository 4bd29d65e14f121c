// Round 28, item 1: /metrics label cardinality. Bob sends N distinct values of every name a client chooses: sessions
// (shadow mode, each with an outcome) under distinct agent, model and task names, starts naming distinct formats,
// GETs of distinct unknown URLs, reads naming distinct tenants, sessions and tasks; the scrape (metrics token) before
// and after: series, bytes, time. node card.mjs BASE_URL N
import { client, series, stream } from './lib.mjs';
const [base, nArg] = process.argv.slice(2);
const n = Number(nArg);
const wsUrl = base.replace('http', 'ws') + '/v1/stream';
const bob = client(base, 'bob');
const scrape = client(base, 'scrape');
const take = async (label) => {
  const r = await scrape('GET', '/metrics');
  const s = series(r.text);
  console.log(`${label}: status ${r.status}, ${s.series} series, ${s.bytes} bytes, scrape ${r.ms.toFixed(1)} ms`);
  return s;
};
const before = await take('before');
const s = await stream(wsUrl, 'bob');
const step = { t: 0, tool: 'bash', action: { kind: 'shell', command: 'python -m pytest -q' }, observation: '1 failed' };
const t0 = Date.now();
const kinds = { final: 0 };
for (let i = 0; i < n; i += 100) {
  const ids = [];
  for (let j = i; j < Math.min(n, i + 100); j++) {
    const id = `c${j}`;
    ids.push(id);
    s.send({ type: 'start', session: id, task: `task\u0000:*{${j}}\n${j}`, agent: `agent-${j}-${'x'.repeat(j % 300)}`.slice(0, 256), model: `model\u202e${j}` });
    s.send({ type: 'step', session: id, seq: 0, step });
    s.send({ type: 'outcome', session: id, passed: j % 2 === 0 });
    s.send({ type: 'end', session: id });
  }
  for (const id of ids) {
    const k = (await s.next((f) => f.session === id && (f.type === 'final' || f.type === 'error'), 120_000)).code ?? 'final';
    kinds[k] = (kinds[k] ?? 0) + 1;
  }
}
console.log(`${n} sessions of distinct agent, model and task in ${Date.now() - t0} ms: ${JSON.stringify(kinds)}`);
// Starts naming unknown formats, each refused bad_message: a stream sending too many bad messages is closed (junk
// streams), so a fresh stream per 200 and an unanswered start counted, not waited for.
let unanswered = 0;
for (let i = 0; i < n; i += 200) {
  const f = await stream(wsUrl, 'bob');
  const ids = [];
  for (let j = i; j < Math.min(n, i + 200); j++) {
    ids.push(`f${j}`);
    f.send({ type: 'start', session: `f${j}`, task: 't', format: `format-${j}` });
  }
  for (const id of ids) await f.next((x) => x.session === id || x.type === 'error', 5_000).catch(() => unanswered++);
  f.close();
}
console.log(`${n} starts naming distinct formats (${unanswered} unanswered: stream closed)`);
s.close();
const par = async (k, f) => {
  for (let i = 0; i < n; i += 50) await Promise.all(Array.from({ length: Math.min(50, n - i) }, (_, j) => f(i + j)));
};
await par('urls', (j) => bob('GET', `/nothing-${j}/x?y=${j}`));
await par('methods', (j) => bob('PATCH', `/v1/sessions/m${j}`));
await par('tenants', (j) => bob('GET', `/v1/sessions?tenant=t${j}`));
await par('session ids', (j) => bob('GET', `/v1/sessions/g${j}`));
await par('task ids', (j) => bob('GET', `/v1/tasks/k${j}/pta`));
const after = await take('after');
for (const name of new Set([...Object.keys(before.byName), ...Object.keys(after.byName)]))
  if (before.byName[name] !== after.byName[name]) console.log(`  ${name}: ${before.byName[name] ?? 0} -> ${after.byName[name] ?? 0}`);
process.exit(0);
