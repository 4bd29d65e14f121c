/**
 * Soak: a steplens server in its own process under steady mixed load for a long time (default 30 minutes):
 * sessions streaming real steps at a paced total rate (each session ends and a new one starts when its
 * trajectory is done), POST /v1/score and batches every few seconds, malformed frames every second. Every
 * window it records the server's RSS (/proc, no forced GC), step->score latency p50/p99 and the steps scored.
 * Targets, after the warm-up windows, comparing the medians of the first and the last third of the windows:
 * RSS growth < 10 %, and p99 latency at most 1.5x (stable).
 *
 *   node dist/bench/soak.js [--minutes 30] [--window-s 60] [--warmup-windows 5] [--sessions 200] [--connections 20]
 *                           [--rate 500] [--resume-window-s 300] [--json FILE] [CORPUS_DIR]
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { dataText } from '../src/client/frames.js';
import type { Step } from '../src/core/types.js';
import { parseTrajectoryText } from '../src/formats/index.js';
import { benchArgs, numberFlag } from './args.js';
import { SERVER_BENCH_FILE, SERVER_BENCH_TASK, findCorpus } from './corpus.js';
import { DrillClient } from './drills/ws-client.js';
import { machine, machineLine, target, writeResult } from './report.js';
import { startTarget } from './server-process.js';
import { commandLine, fmt, latencySummary, median, printTable } from './timing.js';

const { values: args, positionals } = benchArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    'window-s': { type: 'string', default: '60' },
    'warmup-windows': { type: 'string', default: '5' },
    sessions: { type: 'string', default: '200' },
    connections: { type: 'string', default: '20' },
    rate: { type: 'string', default: '500' },
    'resume-window-s': { type: 'string', default: '300' },
    json: { type: 'string' },
  },
  allowPositionals: true,
});
const minutes = numberFlag(args, 'minutes', 'positive number');
const windowMs = numberFlag(args, 'window-s', 'positive number') * 1000;
const warmup = numberFlag(args, 'warmup-windows', 'non-negative integer');
const sessionCount = numberFlag(args, 'sessions', 'positive integer');
const connectionCount = numberFlag(args, 'connections', 'positive integer');
const rate = numberFlag(args, 'rate', 'positive number');
const resumeWindowMs = numberFlag(args, 'resume-window-s', 'non-negative number') * 1000;

/** RSS of a process from /proc (Linux), MB. */
function rssMB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m?.[1] !== undefined ? Number(m[1]) / 1024 : Number.NaN;
}

interface Live {
  id: string;
  client: DrillClient;
  next: number;
  ending: boolean;
}

async function main(): Promise<void> {
  console.log(`${commandLine(import.meta.url)}\n${machineLine()}`);
  const corpus = findCorpus(positionals[0]);
  const text = await readFile(path.join(corpus, SERVER_BENCH_FILE), 'utf8');
  const parsed = parseTrajectoryText(text, 'auto');
  if (!parsed.ok) throw parsed.error;
  const steps: Step[] = parsed.value.steps;
  const doc = JSON.parse(text) as unknown;
  const server = await startTarget('steplens', [], { resumeWindowMs });
  const clients = await Promise.all(Array.from({ length: connectionCount }, () => DrillClient.connect(server.url)));
  const noise = await DrillClient.connect(server.url);
  const sent = new Map<string, number>();
  let latencies: number[] = [];
  let scored = 0;
  let generation = 0;

  const start = (slot: number): Live => {
    const client = clients[slot % clients.length]!;
    const id = `soak-${slot}-${generation++}`;
    client.send({ type: 'start', session: id, task: SERVER_BENCH_TASK });
    return { id, client, next: 0, ending: false };
  };
  for (const c of clients) {
    c.ws.on('message', (raw) => {
      const text = dataText(raw);
      if (!text.startsWith('{"type":"score"')) return;
      const f = JSON.parse(text) as { session: string; seq: number };
      const key = `${f.session}:${f.seq}`;
      const at = sent.get(key);
      if (at !== undefined) {
        latencies.push(performance.now() - at);
        sent.delete(key);
      }
      scored++;
    });
  }
  const live: Live[] = Array.from({ length: sessionCount }, (_, i) => start(i));
  // Frames are consumed by the listener above; the clients' queues are not needed.
  const drain = setInterval(() => {
    for (const c of clients) c.frames.length = 0;
    noise.frames.length = 0;
  }, 1000);

  let cursor = 0;
  let credit = 0;
  let last = performance.now();
  const pace = setInterval(() => {
    const now = performance.now();
    credit += ((now - last) * rate) / 1000;
    last = now;
    for (; credit >= 1; credit--) {
      const slot = cursor++ % live.length;
      const s = live[slot]!;
      if (s.ending) continue;
      if (s.next >= steps.length) {
        s.ending = true;
        s.client.send({ type: 'end', session: s.id });
        live[slot] = start(slot);
        continue;
      }
      sent.set(`${s.id}:${s.next}`, performance.now());
      s.client.send({ type: 'step', session: s.id, seq: s.next, step: steps[s.next] });
      s.next++;
    }
  }, 5);
  const body = JSON.stringify({ task: SERVER_BENCH_TASK, trajectory: doc });
  const batch = JSON.stringify({ items: Array.from({ length: 16 }, () => ({ task: SERVER_BENCH_TASK, trajectory: doc })) });
  const post = (route: string, payload: string): void => {
    void fetch(`${server.http}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload })
      .then((r) => r.arrayBuffer())
      .catch(() => undefined);
  };
  const http = setInterval(() => post('/v1/score', body), 2000);
  const batches = setInterval(() => post('/v1/score/batch', batch), 10_000);
  const junk = [
    '{"type":"step","__proto__":0}',
    'not json',
    '{"type":"step","session":"nope","seq":0,"step":{}}',
    '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
  ];
  const noisy = setInterval(() => junk.forEach((j) => noise.send(j)), 1000);

  const windows: Array<{ minute: number; steps: number; p50: number; p99: number; rssMB: number }> = [];
  const total = Math.max(1, Math.round((minutes * 60_000) / windowMs));
  for (let w = 0; w < total; w++) {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const lat = latencySummary(Float64Array.from(latencies));
    latencies = [];
    windows.push({ minute: ((w + 1) * windowMs) / 60_000, steps: scored, p50: lat.p50, p99: lat.p99, rssMB: rssMB(server.pid) });
    scored = 0;
    const x = windows[windows.length - 1];
    console.log(`window ${w + 1}/${total}: ${x?.steps} steps, p50 ${fmt(x?.p50 ?? 0, 2)} ms, p99 ${fmt(x?.p99 ?? 0, 2)} ms, RSS ${fmt(x?.rssMB ?? 0, 1)} MB`);
  }
  for (const t of [pace, http, batches, noisy, drain]) clearInterval(t);
  for (const c of [...clients, noise]) c.close();
  await server.close();

  printTable(
    ['minute', 'steps', 'p50 ms', 'p99 ms', 'RSS MB'],
    windows.map((x) => [fmt(x.minute, 1), String(x.steps), fmt(x.p50, 2), fmt(x.p99, 2), fmt(x.rssMB, 1)]),
  );
  // After the warm-up: the first third of the windows against the last third, by their medians (one window's p99
  // on a shared VM moves by a factor of 3 from one GC to the next).
  const steady = windows.slice(Math.min(warmup, windows.length - 1));
  const third = Math.max(1, Math.floor(steady.length / 3));
  const early = steady.slice(0, third);
  const late = steady.slice(-third);
  const med = (xs: number[]): number => median(xs);
  const growth = (med(late.map((x) => x.rssMB)) / med(early.map((x) => x.rssMB)) - 1) * 100;
  const p99Ratio = med(late.map((x) => x.p99)) / med(early.map((x) => x.p99));
  const span = `minutes ${fmt(early[0]?.minute ?? 0, 1)}-${fmt(early[early.length - 1]?.minute ?? 0, 1)} vs ${fmt(late[0]?.minute ?? 0, 1)}-${fmt(late[late.length - 1]?.minute ?? 0, 1)}`;
  const targets = [
    target(`soak: RSS growth after the warm-up (median of ${span})`, growth, '<', 10, '%'),
    target(`soak: p99 latency, last third / first third after the warm-up (medians)`, p99Ratio, '<=', 1.5),
  ];
  const figures: Record<string, number> = { minutes, rate, sessions: sessionCount, rss_growth_pct: growth, p99_ratio: p99Ratio };
  windows.forEach((x, i) => Object.assign(figures, { [`w${i + 1}_rss_mb`]: Number(x.rssMB.toFixed(1)), [`w${i + 1}_p99_ms`]: Number(x.p99.toFixed(2)) }));
  writeResult(args.json, { bench: 'soak', command: commandLine(import.meta.url), machine: machine(), targets, figures });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
