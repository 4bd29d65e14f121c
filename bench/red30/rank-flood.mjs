// T121: bob's POST /v1/rank calls at once, each naming his 64 open sessions (each step creating a new .py file, so
// each session holds ~2 edit locations a step), against ../red28/srv.mjs; alice's /healthz pings meanwhile.
// node rank-flood.mjs PORT PID SESSIONS STEPS CALLS [basis]; prints the server's RSS (VmRSS, VmHWM) before and after,
// its CPU, the calls' statuses and alice's pings.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { clearInterval, setInterval, setTimeout } from 'node:timers';
import { stream } from '../red28/lib.mjs';
const [port, pid, nSessions, nSteps, nCalls, basis] = process.argv.slice(2);
const base = `http://127.0.0.1:${port}`;
const here = path.dirname(fileURLToPath(import.meta.url));
const status = () => {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)[1]);
  const [ut, st] = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ').slice(11, 13).map(Number);
  return { rssMB: kb('VmRSS') / 1024, hwmMB: kb('VmHWM') / 1024, cpuS: (ut + st) / 100 };
};
const ids = [];
const streams = [];
const t0 = Date.now();
for (let c = 0; c < Number(nSessions) / 8; c++) {
  const s = await stream(`ws://127.0.0.1:${port}/v1/stream`, 'bob');
  streams.push(s);
  const mine = [];
  for (let k = 0; k < 8; k++) {
    const id = `r${c}-${k}`;
    s.send({ type: 'start', session: id, task: 'made-up-task' });
    await s.next((f) => f.type === 'started' && f.session === id);
    for (let i = 0; i < Number(nSteps); i++)
      s.send({
        type: 'step',
        session: id,
        seq: i,
        step: { t: i, tool: 'create', action: { kind: 'edit', op: 'create', path: `pkg/${id}/m${i}.py`, text: `def f${i}():\n    return ${i}\n` }, observation: 'File created' },
      });
    mine.push(id);
  }
  // The last step's score of each session: all steps scored.
  for (const id of mine) await s.next((f) => f.type === 'score' && f.session === id && f.seq === Number(nSteps) - 1, 600_000);
  ids.push(...mine);
}
console.log(JSON.stringify({ seeded: ids.length, steps: Number(nSteps), s: (Date.now() - t0) / 1000, ...status() }));
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const body = JSON.stringify({ runs: ids.map((session) => ({ session })), ...(basis ? { basis } : {}) });
const rank = () =>
  new Promise((resolve) => {
    const t = Date.now();
    const req = http.request(`${base}/v1/rank`, { method: 'POST', agent, headers: { authorization: 'Bearer bob', 'content-type': 'application/json' } }, (res) => {
      let n = 0;
      res.on('data', (d) => (n += d.length));
      res.on('end', () => resolve({ status: res.statusCode, bytes: n, ms: Date.now() - t }));
    });
    req.on('error', (e) => resolve({ status: e.code }));
    req.end(body);
  });
const before = status();
const ping = spawn(process.execPath, [path.join(here, '../upgrade-churn/ping.mjs'), base, '20'], { stdio: ['ignore', 'pipe', 'inherit'] });
let pingOut = '';
ping.stdout.on('data', (d) => (pingOut += d));
const pinged = new Promise((r) => ping.on('exit', r));
await new Promise((r) => setTimeout(r, 1000));
let peak = 0;
const poll = setInterval(() => (peak = Math.max(peak, status().rssMB)), 100);
const t1 = Date.now();
const results = await Promise.all(Array.from({ length: Number(nCalls) }, rank));
const wall = (Date.now() - t1) / 1000;
clearInterval(poll);
const after = status();
const byStatus = {};
for (const r of results) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
await pinged;
console.log(
  JSON.stringify({
    calls: Number(nCalls),
    byStatus,
    wallS: wall,
    cpuS: +(after.cpuS - before.cpuS).toFixed(2),
    rssBeforeMB: before.rssMB.toFixed(0),
    rssPeakPolledMB: peak.toFixed(0),
    hwmMB: after.hwmMB.toFixed(0),
    ping: JSON.parse(pingOut),
  }),
);
for (const s of streams) s.close();
process.exit(0);
