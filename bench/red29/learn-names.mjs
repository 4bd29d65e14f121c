// Angle 3 of round 29: can bob, with outcomes under his own token, move alice's forecast or grow the learner without
// bound? Alice ends 12 sessions (6 passing) under agA/mA and reads her pPass of a 12-step session; bob then ends N
// sessions each under a distinct agent + model (3 steps, an outcome), sends N outcomes for sessions never started and
// N more for his ended sessions, and ends N/4 sessions under alice's agent + model with outcomes (all failing);
// the learner tries every LEARN_MS. Prints the server's RSS, GET /v1/forecast of each, and alice's pPass after.
// node learn-names.mjs PORT SERVER_PID N WAIT_MS
import { readFileSync } from 'node:fs';
import { setTimeout } from 'node:timers';
import { client, session, stream } from '../red28/lib.mjs';
const [port, pid, nArg, waitArg = '8000'] = process.argv.slice(2);
const N = Number(nArg);
const base = `http://127.0.0.1:${port}`;
const wsUrl = `ws://127.0.0.1:${port}/v1/stream`;
const alice = client(base, 'alice');
const bob = client(base, 'bob');
const rss = () => (Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024).toFixed(0);
const ag = { agent: 'agA', model: 'mA' };
const summary = async (who) => {
  const fc = JSON.parse((await who('GET', '/v1/forecast')).text);
  const l = fc.learning ?? {};
  return JSON.stringify({
    version: fc.version,
    sessions: l.sessions,
    models: fc.models?.length,
    attempts: l.attempts?.length,
    last: l.attempts?.at(-1) === undefined ? undefined : JSON.stringify(l.attempts.at(-1)).slice(0, 300),
    bytes: JSON.stringify(fc).length,
  });
};
const as = await stream(wsUrl, 'alice');
for (let i = 0; i < 12; i++) await session(as, { task: 'task-a', ...ag }, 12, i % 2 === 0, `a${i}`);
const pPass = async () => {
  const f = await session(as, { task: 'task-a', ...ag }, 12, undefined);
  return f.report?.pPass ?? f.pPass;
};
await new Promise((r) => setTimeout(r, Number(waitArg)));
console.log(`before: rss ${rss()} MB alice pPass ${await pPass()} alice ${await summary(alice)} bob ${await summary(bob)}`);
const bs = await stream(wsUrl, 'bob');
const t = Date.now();
const ids = [];
for (let i = 0; i < N; i++) {
  const name = `${'x'.repeat(200)}${i}`;
  const f = await session(bs, { task: `t${i % 7}`, agent: `ag-${name}`, model: `m-${name}` }, 3, i % 2 === 0, `b${i}`);
  ids.push(f.session);
}
let errors = {};
const count = (f) => void (errors[f.code ?? f.type] = (errors[f.code ?? f.type] ?? 0) + 1);
bs.ws.on('message', (d) => {
  const f = JSON.parse(d.toString());
  if (f.type === 'error') count(f);
});
for (let i = 0; i < N; i++) bs.send({ type: 'outcome', session: `never-${i}`, passed: true });
for (let i = 0; i < N; i++) bs.send({ type: 'outcome', session: ids[i], passed: i % 2 === 1 });
for (let i = 0; i < N / 4; i++) await session(bs, { task: 'task-a', ...ag }, 12, false, `f${i}`);
console.log(`bob's ${N} + ${N / 4} sessions and ${2 * N} outcomes in ${Date.now() - t} ms; error frames ${JSON.stringify(errors)}`);
await new Promise((r) => setTimeout(r, Number(waitArg)));
console.log(`after: rss ${rss()} MB alice pPass ${await pPass()} alice ${await summary(alice)} bob ${await summary(bob)}`);
process.exit(0);
