// Bob's session on a shared server: one 3,000-line Python file created, then N one-line edits of it (each a new text
// whose scope lookup parses it); the server's RSS and CPU (from /proc) every 250 steps.
// node edit-rss.mjs PORT SERVER_PID N [LINES]
import { readFileSync } from 'node:fs';
import { client, steps, stream } from '../red28/lib.mjs';
const [port, pid, nArg, linesArg = '3000'] = process.argv.slice(2);
const N = Number(nArg);
const proc = () => {
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { rss, cpu: (Number(f[11]) + Number(f[12])) * 10 };
};
const text = Array.from({ length: Number(linesArg) }, (_, i) => (i % 10 === 0 ? `def f${i}(x):` : `    x = x + ${i}`)).join('\n');
// Bob's own PTA of his task (the `tenant` reference scope), so that his steps' scopes are looked up.
const bob = client(`http://127.0.0.1:${port}`, 'bob');
for (let r = 0; r < 2; r++)
  console.log(
    'reference',
    (
      await bob('POST', '/v1/tasks/bob-task/references', {
        trajectory: [{ t: 0, tool: 'e', action: { kind: 'view', path: 'src/a.py' }, observation: 'x' }, ...steps(6, `r${r}`).map((s, i) => ({ ...s, t: i + 1 }))],
      })
    ).status,
  );
const s = await stream(`ws://127.0.0.1:${port}/v1/stream`, 'bob');
s.send({ type: 'start', task: 'bob-task', agent: 'a', model: 'm' });
const { session } = await s.next((f) => f.type === 'started');
const send = (seq, action) => s.send({ type: 'step', session, seq, step: { t: seq, tool: 'e', action, observation: 'ok' } });
send(0, { kind: 'edit', op: 'create', path: 'src/a.py', text });
await s.next((f) => f.type === 'score' && f.seq === 0, 60_000);
const t0 = proc();
console.log(`start rss ${t0.rss.toFixed(0)} MB`);
for (let i = 1; i <= N; i++) {
  send(i, { kind: 'edit', op: 'replace_lines', path: 'src/a.py', range: [1 + ((i - 1) % 2000), 1 + ((i - 1) % 2000)], new: `    y = ${i}` });
  if (i % 250 === 0) {
    await s.next((f) => (f.type === 'score' && f.seq === i) || f.type === 'error', 600_000);
    const p = proc();
    console.log(`step ${i} rss ${p.rss.toFixed(0)} MB cpu ${((p.cpu - t0.cpu) / i).toFixed(1)} ms/step`);
  }
}
s.send({ type: 'end', session });
await s.next((f) => f.type === 'final', 60_000);
s.close();
