// Round 28, item 3: ids that hold Redis' separators and patterns. Alice and bob each grow their own PTA of the same
// crafted task ids (2 references each, different steps) and start sessions of the same crafted session ids (different
// tasks); each must read back its own, never the other's, and `GET /v1/tasks` must list only its own. Then Redis' keys
// by kind. node redis-ids.mjs BASE_URL REDIS_PORT
import { execFileSync } from 'node:child_process';
import { client, session, stream, steps } from './lib.mjs';
const [base, port] = process.argv.slice(2);
const wsUrl = base.replace('http', 'ws') + '/v1/stream';
const ops = client(base, 'ops');
const who = { alice: client(base, 'alice'), bob: client(base, 'bob') };
const tasks = ['a:b', '*', '?', '[a-z]*', '{x}', 'a\nb', 'x'.repeat(256), '1:a', 'alice', 'bob\u0000a:b', '\u0000', 'ot:alice', '~'.repeat(256), 'sm:alice:a-ended', '\r\n*1\r\n$8\r\nFLUSHALL\r\n'];
const sessions = ['a:b', '*', '{x}', 'alice:x', 'bob:x', 'sm:x', '%00', 'x'.repeat(128)];
let bad = 0;
for (const t of tasks)
  for (const [name, c] of Object.entries(who))
    for (let i = 0; i < 2; i++) {
      const r = await c('POST', `/v1/tasks/${encodeURIComponent(t)}/references`, { trajectory: steps(6, `${name}${i}`) });
      if (r.status !== 201) {
        bad++;
        console.log('ref', name, JSON.stringify(t), r.status, r.text.slice(0, 120));
      }
    }
for (const t of tasks) {
  const seen = {};
  const bodies = {};
  for (const [name, c] of Object.entries(who)) {
    const pta = JSON.parse((await c('GET', `/v1/tasks/${encodeURIComponent(t)}/pta`)).text);
    const asOps = JSON.parse((await ops('GET', `/v1/tasks/${encodeURIComponent(t)}/pta?tenant=${name}`)).text);
    bodies[name] = JSON.stringify({ ...pta, task: undefined });
    const by = [...new Set(asOps.references?.map((r) => r.by))];
    seen[name] = { refs: pta.references?.length, task: pta.task === t, by: by.join(','), own: by.length === 1 && by[0] === name, other: false };
  }
  seen.bob.other = seen.alice.other = bodies.alice === bodies.bob;
  const ok = seen.alice.refs === 2 && seen.bob.refs === 2 && seen.alice.own && seen.bob.own && !seen.alice.other && !seen.bob.other && seen.alice.task && seen.bob.task;
  if (!ok) bad++;
  console.log(`${ok ? 'OWN ' : 'MIX '} task ${JSON.stringify(t).slice(0, 40)}: ${JSON.stringify(seen)}`);
}
for (const [name, c] of Object.entries(who)) {
  const listed = JSON.parse((await c('GET', '/v1/tasks')).text).tasks;
  console.log(`${name} lists ${listed.length} tasks (${tasks.length} grown), others': ${listed.filter((x) => x.tenant !== undefined && x.tenant !== name).length}`);
}
const streams = { alice: await stream(wsUrl, 'alice'), bob: await stream(wsUrl, 'bob') };
for (const id of sessions)
  for (const [name, s] of Object.entries(streams)) {
    const f = await session(s, { session: id, task: `${name}-task` }, 3, name === 'alice');
    if (f.type !== 'final') {
      bad++;
      console.log('session', name, id, JSON.stringify(f).slice(0, 150));
    }
  }
for (const id of sessions) {
  const got = {};
  for (const [name, c] of Object.entries(who)) got[name] = JSON.parse((await c('GET', `/v1/sessions/${encodeURIComponent(id)}`)).text);
  const ok = got.alice.task === 'alice-task' && got.bob.task === 'bob-task' && got.alice.passed === true && got.bob.passed === false;
  if (!ok) bad++;
  console.log(`${ok ? 'OWN ' : 'MIX '} session ${JSON.stringify(id).slice(0, 40)}: alice ${got.alice.task}/${got.alice.passed}, bob ${got.bob.task}/${got.bob.passed}`);
}
const keys = execFileSync('redis-cli', ['-p', port, '--scan'], { encoding: 'latin1' }).split('\n').filter(Boolean);
const kinds = {};
for (const k of keys) {
  const kind = /^steplens:([a-z]+)/.exec(k)?.[1] ?? k.slice(0, 12);
  kinds[kind] = (kinds[kind] ?? 0) + 1;
}
console.log(`redis keys ${keys.length}: ${JSON.stringify(kinds)}; dbsize ${execFileSync('redis-cli', ['-p', port, 'DBSIZE'], { encoding: 'utf8' }).trim()}; probes wrong: ${bad}`);
for (const s of Object.values(streams)) s.close();
process.exit(0);
