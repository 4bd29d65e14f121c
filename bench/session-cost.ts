/**
 * CPU cost of the server's message path for whole sessions, without sockets:
 * `handleFrame` (parse, registry, session, scorer, frames) on a stand-in
 * connection that encodes every frame it is sent (as the socket path does) and
 * drops it. Each session is the held-out 79-step run of the server benches
 * (`start`, its steps, `end` → `final`, next session), as `ws-load`'s lifecycle
 * shape sends it. Prints CPU µs per step of the session path split into start,
 * steps and end, against the cost of `JSON.parse` of the same frames (what the
 * echo server of `ws-load` does per message), passes interleaved, median of passes.
 * Meant for before/after comparisons of one change on a busy machine (CPU time, not wall time).
 *
 *   node dist/bench/session-cost.js [--sessions 200] [--passes 7] [--profile] [--json FILE]
 * `--profile`: one long pass only (run under `node --cpu-prof`).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { parseTrajectoryText } from '../src/formats/index.js';
import { bundledReferencesDir } from '../src/package-files.js';
import { Connection } from '../src/server/connection.js';
import { sessionKey } from '../src/server/principal.js';
import { createMetrics } from '../src/server/metrics.js';
import { resolveOptions } from '../src/server/options.js';
import { SessionRegistry } from '../src/server/session-registry.js';
import { handleFrame, type HandlerDeps } from '../src/server/stream-handler.js';
import { ReferenceStore } from '../src/store/reference-store.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { benchArgs, numberFlag } from './args.js';
import { SERVER_BENCH_FILE, SERVER_BENCH_TASK, findCorpus } from './corpus.js';
import { machine, machineLine, writeResult } from './report.js';
import { cpuUs, socketStandIn } from './socket-stand-in.js';
import { commandLine, fmt, median, printTable } from './timing.js';
import { stepTemplates } from './ws-driver.js';

const { values: args } = benchArgs({
  options: { sessions: { type: 'string', default: '200' }, passes: { type: 'string', default: '7' }, profile: { type: 'boolean' }, json: { type: 'string' }, corpus: { type: 'string' } },
});
const sessions = numberFlag(args, 'sessions', 'positive integer');
const passes = numberFlag(args, 'passes', 'positive integer');

/** Bytes the socket stand-in was sent. */
let sentBytes = 0;
const sink = socketStandIn((data) => {
  sentBytes += data.length;
});

async function main(): Promise<void> {
  const file = path.join(findCorpus(args.corpus), SERVER_BENCH_FILE);
  const parsed = parseTrajectoryText(await readFile(file, 'utf8'), 'auto', file);
  if (!parsed.ok) throw parsed.error;
  const templates = stepTemplates(parsed.value.steps);
  const steps = templates.steps;
  const data = await mkdtemp(path.join(os.tmpdir(), 'steplens-bench-'));
  const store = await ReferenceStore.open({ dataDir: data, seedDirs: [bundledReferencesDir()] });
  const options = resolveOptions({ limits: { sessionsPerConnection: 10, totalSessions: 100 } });
  const connections = new Map<number, Connection>();
  const log = pino({ level: 'silent' });
  const metrics = createMetrics(store);
  const registry = new SessionRegistry({ store, analyzers: defaultAnalyzers(), metrics, log, options, connections });
  const deps: HandlerDeps = { registry, metrics, log, options };
  const conn = new Connection(1, sink, 1 << 30);
  connections.set(1, conn);
  let serial = 0;
  const frames = templates.frames.map((f) => Buffer.from(f));

  /** `n` whole sessions; CPU µs spent in start, steps and end. */
  const run = async (n: number): Promise<{ start: number; steps: number; end: number }> => {
    const out = { start: 0, steps: 0, end: 0 };
    for (let i = 0; i < n; i++) {
      const id = `s${String(++serial).padStart(9, '0')}`;
      let t = cpuUs();
      await handleFrame(deps, conn, Buffer.from(JSON.stringify({ type: 'start', session: id, task: SERVER_BENCH_TASK })), false);
      out.start += cpuUs() - t;
      t = cpuUs();
      for (const f of frames) {
        Buffer.from(id, 'latin1').copy(f, 26);
        void handleFrame(deps, conn, f, false);
      }
      out.steps += cpuUs() - t;
      t = cpuUs();
      await handleFrame(deps, conn, Buffer.from(JSON.stringify({ type: 'end', session: id })), false);
      out.end += cpuUs() - t;
      // Ended sessions are kept for resume; the bench frees them as the sweep would after the resume window.
      const key = sessionKey(conn.principal.tenant, id);
      registry.sessions.delete(key);
      conn.drop(key);
    }
    return out;
  };
  const parseOnly = (n: number): number => {
    const t = cpuUs();
    let k = 0;
    for (let i = 0; i < n; i++) for (const f of frames) k += (JSON.parse(f.toString()) as { seq: number }).seq;
    if (k < 0) throw new Error('unreachable');
    return cpuUs() - t;
  };

  if (args.profile) {
    await run(sessions * passes);
    await rm(data, { recursive: true, force: true });
    return;
  }
  await run(Math.max(20, sessions / 4));
  parseOnly(20);
  const rows: Array<{ start: number; steps: number; end: number; parse: number }> = [];
  for (let p = 0; p < passes; p++) {
    const r = await run(sessions);
    const parse = parseOnly(sessions);
    rows.push({ start: r.start / (sessions * steps), steps: r.steps / (sessions * steps), end: r.end / (sessions * steps), parse: parse / (sessions * steps) });
  }
  const med = (k: 'start' | 'steps' | 'end' | 'parse'): number => median(rows.map((r) => r[k]));
  const total = median(rows.map((r) => r.start + r.steps + r.end));
  console.log(`command: ${commandLine(import.meta.url)}`);
  console.log(machineLine(machine()));
  console.log(`sessions: ${sessions} per pass × ${args.passes} passes of ${SERVER_BENCH_FILE} (${steps} steps), task ${SERVER_BENCH_TASK} (PTA); load average ${os.loadavg()[0]?.toFixed(1)}`);
  printTable(
    ['CPU µs per step (median of passes)', 'µs', 'vs JSON.parse'],
    [
      ['session path, whole session', fmt(total, 2), `×${fmt(total / med('parse'), 2)}`],
      ['  start (per step of the session)', fmt(med('start'), 2), ''],
      ['  steps', fmt(med('steps'), 2), ''],
      ['  end (per step of the session)', fmt(med('end'), 2), ''],
      ['JSON.parse of the step frames', fmt(med('parse'), 2), '×1.00'],
    ],
  );
  console.log(`bytes sent per step: ${fmt(sentBytes / ((passes + 0.25) * sessions * steps), 0)}`);
  writeResult(args.json, {
    bench: 'session-cost',
    command: commandLine(import.meta.url),
    machine: machine(),
    targets: [],
    figures: { us_per_step: total, start_us: med('start'), steps_us: med('steps'), end_us: med('end'), parse_us: med('parse') },
  });
  await rm(data, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  process.stderr.write(`session-cost: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
