// Round 28, item 3: what bob's sessions keep in Redis against what his journal budget counts. N sessions of 0 or 1
// short step, ids of L characters, started and ended one stream; Redis' used_memory, key count and jb:bob's total
// before and after. node journal.mjs BASE_URL REDIS_PORT N L STEPS
import { execFileSync } from 'node:child_process';
import { stream } from './lib.mjs';
const [base, port, nArg, lArg, stepsArg] = process.argv.slice(2);
const [n, len, k] = [Number(nArg), Number(lArg), Number(stepsArg)];
const cli = (...a) => execFileSync('redis-cli', ['-p', port, ...a], { encoding: 'utf8' }).trim();
const read = () => ({ used: Number(/used_memory:(\d+)/.exec(cli('INFO', 'memory'))[1]), keys: Number(cli('DBSIZE')), counted: Number(cli('HGET', 'steplens:jb:bob', 'total') || 0) });
const s = await stream(base.replace('http', 'ws') + '/v1/stream', 'bob');
const step = { t: 0, tool: 'bash', action: { kind: 'shell', command: 'ls' }, observation: 'a' };
const before = read();
const tag = Math.random().toString(36).slice(2, 8);
const kinds = {};
for (let i = 0; i < n; i += 100) {
  const ids = [];
  for (let j = i; j < Math.min(n, i + 100); j++) {
    const id = `${tag}-${j}-`.padEnd(len, 'x');
    ids.push(id);
    s.send({ type: 'start', session: id, task: 't' });
    for (let q = 0; q < k; q++) s.send({ type: 'step', session: id, seq: q, step: { ...step, t: q } });
    s.send({ type: 'end', session: id });
  }
  for (const id of ids) {
    const f = await s.next((x) => x.session === id && (x.type === 'final' || x.type === 'error'), 120_000);
    kinds[f.code ?? f.type] = (kinds[f.code ?? f.type] ?? 0) + 1;
  }
}
const after = read();
const d = { used: after.used - before.used, keys: after.keys - before.keys, counted: after.counted - before.counted };
console.log(
  `${n} sessions (id ${len} chars, ${k} steps): ${JSON.stringify(kinds)}; Redis +${d.used} bytes (${(d.used / n).toFixed(0)} a session), +${d.keys} keys, counted +${d.counted} (${(d.counted / n).toFixed(0)} a session); used / counted ${(d.used / d.counted).toFixed(2)}`,
);
s.close();
process.exit(0);
