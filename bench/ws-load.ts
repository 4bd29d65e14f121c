/**
 * Load benchmark of the WebSocket stream: an in-process server (buildApp on
 * 127.0.0.1:0, reference set seeded from data/example) and C connections, each
 * streaming S sessions of a real corpus trajectory at once. Prints steps/s and
 * per-step round-trip latency (send → score) percentiles. No assertions.
 *
 *   node dist/bench/ws-load.js [CONNECTIONS=8] [SESSIONS_PER_CONNECTION=8]
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { parseTrajectoryText } from '../src/formats/index.js';
import { buildApp } from '../src/server/app.js';
import { bundledSeedDir } from '../src/server/config.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = here.includes(`${path.sep}dist${path.sep}`) ? path.resolve(here, '../..') : path.resolve(here, '..');
const FILE = path.resolve(repo, '../shared/corpus/SWE-agent__mini-swe-agent__pull-refs/output/deepseek_lite_dev_noparallel/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json');
const TASK = 'pylint-dev__astroid-1196';

const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function main(): Promise<void> {
  const connections = Number(process.argv[2] ?? 8);
  const perConnection = Number(process.argv[3] ?? 8);
  const parsed = parseTrajectoryText(await readFile(FILE, 'utf8'), 'auto', FILE);
  if (!parsed.ok) throw parsed.error;
  const steps = parsed.value.steps;
  const data = await mkdtemp(path.join(os.tmpdir(), 'steplens-bench-'));
  const seed = bundledSeedDir();
  const app = await buildApp({ dataDir: data, seedDirs: seed ? [seed] : [], logLevel: 'silent', limits: { sessionsPerConnection: perConnection } });
  const url = `${(await app.listen({ host: '127.0.0.1', port: 0 })).replace(/^http/, 'ws')}/v1/stream`;
  const latencies: number[] = [];
  const began = performance.now();
  await Promise.all(Array.from({ length: connections }, async (_, ci) => {
    const ws = new WebSocket(url);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const sent = new Map<string, number>();
    let finals = 0;
    await new Promise<void>((resolve) => {
      ws.on('message', (raw) => {
        const f = JSON.parse(String(raw)) as { type: string; session: string; seq: number };
        if (f.type === 'started') {
          steps.forEach((step, seq) => {
            sent.set(`${f.session}/${seq}`, performance.now());
            ws.send(JSON.stringify({ type: 'step', session: f.session, seq, step }));
          });
          ws.send(JSON.stringify({ type: 'end', session: f.session }));
        } else if (f.type === 'score') {
          latencies.push(performance.now() - (sent.get(`${f.session}/${f.seq}`) ?? 0));
        } else if (f.type === 'final' && ++finals === perConnection) resolve();
      });
      for (let s = 0; s < perConnection; s++) ws.send(JSON.stringify({ type: 'start', session: `c${ci}-s${s}`, task: TASK }));
    });
    ws.close();
  }));
  const seconds = (performance.now() - began) / 1000;
  await app.close();
  await rm(data, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  process.stdout.write(`${JSON.stringify({
    connections, sessionsPerConnection: perConnection, stepsPerSession: steps.length, steps: latencies.length,
    seconds: Number(seconds.toFixed(3)), stepsPerSecond: Math.round(latencies.length / seconds),
    roundTripMs: { p50: Number(pct(latencies, 50).toFixed(2)), p99: Number(pct(latencies, 99).toFixed(2)), max: Number((latencies.at(-1) ?? 0).toFixed(2)) },
  }, null, 2)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`ws-load: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
