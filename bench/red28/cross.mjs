// Round 28, item 2: every route that names an id, asked by bob with alice's id and with an id never used; the two
// answers (status and body, the id replaced by ID) must be the same. Then bob reports outcomes and shadow runs under
// alice's agent + model and grows a reference of her task: alice's pPass, policy and PTA before and after.
// node cross.mjs BASE_URL; prints one line per probe (SAME / DIFF) and the before/after of alice's.
import { setTimeout } from 'node:timers';
import { client, session, stream, steps } from './lib.mjs';
const base = process.argv[2];
const wsUrl = base.replace('http', 'ws') + '/v1/stream';
const alice = client(base, 'alice');
const bob = client(base, 'bob');
const out = [];
const norm = (r, id) =>
  `${r.status} ${r.text
    .split(id)
    .join('ID')
    .replace(/"(ticket|expiresAt)":"[^"]*"/g, '"$1":"*"')
    .replace(/"version":\d+/g, '"version":N')}`;
const pair = async (name, ask, aliceId, freshId) => {
  const a = await ask(aliceId);
  const f = await ask(freshId);
  const same = norm(a, aliceId) === norm(f, freshId);
  out.push(same);
  console.log(`${same ? 'SAME' : 'DIFF'} ${name}: ${norm(a, aliceId).slice(0, 160)}${same ? '' : `\n      fresh: ${norm(f, freshId).slice(0, 160)}`}`);
};
const traj = steps(12);
// Alice: an ended session with its outcome, one left open, two references of her task (her own PTA).
const as = await stream(wsUrl, 'alice');
const ag = { agent: 'agA', model: 'mA' };
await session(as, { session: 'a-ended', task: 'task-a', ...ag }, 12, true);
as.send({ type: 'start', session: 'a-open', task: 'task-a', ...ag });
await as.next((f) => f.type === 'started' && f.session === 'a-open');
for (let i = 0; i < 2; i++) console.log('alice ref', (await alice('POST', '/v1/tasks/task-a/references', { trajectory: steps(12, `r${i}`) })).text.slice(0, 120));
const aliceView = async () => {
  const s = await stream(wsUrl, 'alice');
  const f = await session(s, { task: 'task-a', ...ag }, 12, undefined);
  s.close();
  const pol = JSON.parse((await alice('GET', '/v1/policies')).text);
  const pta = JSON.parse((await alice('GET', '/v1/tasks/task-a/pta')).text);
  const fc = JSON.parse((await alice('GET', '/v1/forecast')).text);
  return {
    pPass: f.report?.pPass ?? f.pPass,
    score: f.report?.score?.total ?? f.score?.total,
    ptaVersion: pta.version,
    ptaRefs: pta.references?.length,
    forecastVersion: fc.version,
    pairs: pol.pairs?.map((p) => `${p.tenant}/${p.agent}/${p.model}:${p.state}:${p.runs?.passing ?? 0}+${p.runs?.failing ?? 0}`).join(','),
  };
};
const before = await aliceView();
console.log('alice before', JSON.stringify(before));

// HTTP reads and writes naming alice's ids.
const S = (id) => encodeURIComponent(id);
for (const [name, f] of [
  ['GET /v1/sessions/:id', (id) => bob('GET', `/v1/sessions/${S(id)}`)],
  ['GET /v1/sessions/:id?tenant=alice', (id) => bob('GET', `/v1/sessions/${S(id)}?tenant=alice`)],
  ['GET /v1/sessions/:id/steps', (id) => bob('GET', `/v1/sessions/${S(id)}/steps`)],
  ['GET /v1/sessions/:id/steps?tenant=alice', (id) => bob('GET', `/v1/sessions/${S(id)}/steps?tenant=alice`)],
  ['GET /v1/sessions/:id/alignment', (id) => bob('GET', `/v1/sessions/${S(id)}/alignment`)],
  ['GET /v1/sessions/:id/alignment?tenant=alice', (id) => bob('GET', `/v1/sessions/${S(id)}/alignment?tenant=alice`)],
  ['POST /v1/tickets live session', (id) => bob('POST', '/v1/tickets', { route: '/v1/live', session: id })],
  ['POST /v1/tickets live session tenant=alice', (id) => bob('POST', '/v1/tickets', { route: '/v1/live', session: id, tenant: 'alice' })],
  ['GET /v1/live?session=', (id) => bob('GET', `/v1/live?session=${S(id)}`)],
  ['GET /v1/live?session=&tenant=alice', (id) => bob('GET', `/v1/live?session=${S(id)}&tenant=alice`)],
  ['POST /v1/rank sessions', (id) => bob('POST', '/v1/rank', { runs: [{ session: id }, { session: id }] })],
]) {
  await pair(`${name} (ended)`, f, 'a-ended', 'never-1');
  await pair(`${name} (open)`, f, 'a-open', 'never-2');
}
for (const [name, f] of [
  ['GET /v1/tasks/:task/pta', (t) => bob('GET', `/v1/tasks/${S(t)}/pta`)],
  ['GET /v1/tasks/:task/pta?scope=tenant', (t) => bob('GET', `/v1/tasks/${S(t)}/pta?scope=tenant`)],
  ['GET /v1/tasks/:task/pta?tenant=alice', (t) => bob('GET', `/v1/tasks/${S(t)}/pta?tenant=alice`)],
  ['DELETE /v1/tasks/:task/pta', (t) => bob('DELETE', `/v1/tasks/${S(t)}/pta`)],
  ['DELETE /v1/tasks/:task/pta?tenant=alice', (t) => bob('DELETE', `/v1/tasks/${S(t)}/pta?tenant=alice`)],
  ['POST /v1/score (reference used)', (t) => bob('POST', '/v1/score', { task: t, trajectory: traj })],
  ['POST /v1/score/steps (alignment)', (t) => bob('POST', '/v1/score/steps', { task: t, trajectory: traj })],
  ['POST /v1/rank trajectories', (t) => bob('POST', '/v1/rank', { task: t, runs: [{ trajectory: traj }, { trajectory: steps(6) }] })],
])
  await pair(name, f, 'task-a', 'never-task');
for (const [name, f] of [
  ['GET /v1/sessions?tenant=', (t) => bob('GET', `/v1/sessions?tenant=${t}`)],
  ['GET /v1/tasks?tenant=', (t) => bob('GET', `/v1/tasks?tenant=${t}`)],
  ['GET /v1/forecast?tenant=', (t) => bob('GET', `/v1/forecast?tenant=${t}`)],
  ['GET /v1/live?tenant= (snapshot)', (t) => bob('GET', `/v1/live?tenant=${t}`)],
])
  await pair(name, f, 'alice', 'nobody');

// The stream: resume, step, outcome, end of alice's ids; start under her id.
const bs = await stream(wsUrl, 'bob');
const wsAsk = (msg) => async (id) => {
  bs.send({ ...msg, session: id });
  const f = await bs.next((x) => x.session === id || x.type === 'error');
  return { status: 0, text: JSON.stringify(f) };
};
for (const [name, msg] of [
  ['ws resume', { type: 'resume', after: 0 }],
  ['ws step', { type: 'step', seq: 0, step: traj[0] }],
  ['ws outcome', { type: 'outcome', passed: false }],
  ['ws end', { type: 'end' }],
]) {
  await pair(`${name} (ended)`, wsAsk(msg), 'a-ended', 'never-3');
  await pair(`${name} (open)`, wsAsk(msg), 'a-open', 'never-4');
}
await pair('ws start (same id)', wsAsk({ type: 'start', task: 'task-b' }), 'a-open', 'never-5');
await pair(
  'ws start task-a (reference)',
  async (t) => {
    bs.send({ type: 'start', session: `ref-${t}`, task: t });
    const f = await bs.next((x) => x.session === `ref-${t}`);
    return { status: 0, text: JSON.stringify(f.reference ?? f) };
  },
  'task-a',
  'never-task',
);

// Bob's writes under alice's agent + model and task: outcomes (forecast learning, shadow counters), references.
for (let i = 0; i < 24; i++) await session(bs, { task: 'task-a', ...ag }, 12, i % 4 === 0, `b${i}`);
for (let i = 0; i < 2; i++) console.log('bob ref', (await bob('POST', '/v1/tasks/task-a/references', { trajectory: steps(12, `x${i}`) })).text.slice(0, 120));
await new Promise((r) => setTimeout(r, Number(process.env.WAIT_MS ?? 8000)));
const bobFc = JSON.parse((await bob('GET', '/v1/forecast')).text);
console.log('bob forecast version', bobFc.version, 'attempts', JSON.stringify(bobFc.learning?.attempts?.slice(-1)).slice(0, 200));
const after = await aliceView();
console.log('alice after ', JSON.stringify(after));
const keys = ['pPass', 'score', 'ptaVersion', 'ptaRefs', 'forecastVersion', 'pairs'];
const changed = keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
console.log(`${changed.length === 0 ? 'SAME' : 'DIFF'} alice's pPass, score, PTA, forecast, policy pairs after bob's writes${changed.length ? ': ' + changed.join(', ') : ''}`);
console.log(`probes ${out.length}, differing ${out.filter((x) => !x).length}`);
bs.close();
as.close();
process.exit(0);
