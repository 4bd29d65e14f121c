/**
 * Does one heavy request stall everyone else? A steplens server in its own process (server-process.ts); one
 * WebSocket client pings every 5 ms from a process of its own and records each round trip while another client sends one heavy request
 * built from a real corpus trajectory (pylint-dev__astroid-1196): a step with a 1 MB shell command, a step
 * viewing a range of an 850 KB Python file, POST /v1/score of 100,000 steps (47 MB), a batch of 1,024 x 120
 * steps (and 5,000, the per-trajectory limit), POST /v1/score/steps (the web view's upload) of 80,000 and 5,000 steps,
 * steps of text built to make a parser or pattern backtrack (`hostile-text`),
 * and 20,000 tiny steps sent at once on one connection (then again, until the resume window of its four sessions
 * runs out and they are ended), and 32 polls at once of a live 5,000-step session's status, and of its whole step view,
 * and 32 opens at once of its live feed (`GET /v1/live?session=`, whose first event is that view), and the `end` of one
 * such session and of four at once.
 * Reports the request's time and the ping round trips during it, against an idle window, and the server's own
 * event-loop delay (perf_hooks, in its process) over the same window.
 *
 *   node dist/bench/stall.js [--only shell-1mb,python-850kb,hostile-text,score-100k,score-5000,score-steps-80k,score-steps-5000,burst-20k,burst-20k-expiry,status-32,steps-32,live-32,end-5000,end-5000x4,batch] [--json FILE] [CORPUS_DIR]
 */
import { Worker } from 'node:worker_threads';
import WebSocket from 'ws';
import { dataText } from '../src/client/frames.js';
import type { Step } from '../src/core/types.js';
import { benchArgs } from './args.js';
import { SERVER_BENCH_FILE, SERVER_BENCH_TASK, findCorpus, loadCorpus } from './corpus.js';
import { machine, machineLine, target, writeResult, type Target } from './report.js';
import { pingerProcess } from './drills/pinger-process.js';
import { startTarget } from './server-process.js';
import { commandLine, fmt, latencySummary, printTable } from './timing.js';

const { values: args, positionals } = benchArgs({ options: { only: { type: 'string' }, json: { type: 'string' } }, allowPositionals: true });
const only = args.only?.split(',');

/** Sends frames on a fresh connection and resolves when `done` says the answer arrived. */
async function wsRequest(url: string, frames: string[], done: (f: { type: string; [k: string]: unknown }) => boolean): Promise<string> {
  const ws = new WebSocket(url, { maxPayload: 64 * 1024 * 1024 });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return new Promise<string>((resolve) => {
    ws.on('message', (raw) => {
      const f = JSON.parse(dataText(raw)) as { type: string };
      if (f.type === 'error' || done(f)) {
        ws.close();
        resolve(f.type === 'error' ? `error ${String((f as { code?: string }).code)}` : f.type);
      }
    });
    for (const f of frames) ws.send(f);
  });
}

async function post(http: string, route: string, body: string): Promise<string> {
  const mb = `${(Buffer.byteLength(body) / 1e6).toFixed(1)} MB`;
  try {
    const res = await fetch(`${http}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await res.arrayBuffer();
    return `HTTP ${res.status} (${mb})`;
  } catch (error) {
    return `${(error as { cause?: { code?: string } }).cause?.code ?? 'failed'} (${mb})`;
  }
}

/** A 1 MB command: the run's real shell commands, one per line, each with its own suffix (no cache helps). */
function bigCommand(steps: readonly Step[]): string {
  const commands = steps.flatMap((s) => (s.action.kind === 'shell' ? [s.action.command.replace(/\n/g, ' ')] : []));
  const lines: string[] = [];
  for (let i = 0, size = 0; size < 1_000_000; i++) {
    const line = `${commands[i % commands.length] ?? 'ls'} # ${i}`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

/** An 850 KB Python module of distinct classes and methods. */
function bigPython(): string {
  const out: string[] = [];
  for (let c = 0, size = 0; size < 850_000; c++) {
    const block = `class Model${c}(Base):\n    """Model ${c}."""\n\n    def __init__(self, value):\n        self.value = value + ${c}\n\n    def render(self):\n        return f"<Model${c} {self.value}>"\n\n`;
    out.push(block);
    size += block.length;
  }
  return out.join('');
}

/** `n` steps cycling through the run's real steps, each its tool, action and observation cut to 100 characters (a 100,000-step body is 47 MB). */
function stepsUpTo(steps: readonly Step[], n: number): Step[] {
  return Array.from({ length: n }, (_, i) => {
    const s = steps[i % steps.length]!;
    return { t: i, tool: s.tool, action: s.action, observation: (s.observation ?? '').slice(0, 100) };
  });
}

/** 20,000 tiny steps at once on one connection, sent from a worker thread (burst-sender.ts); resolves with the answer. */
let bursts = 0;
function burst(url: string): Promise<string> {
  return new Promise<string>((resolve) => {
    const worker = new Worker(new URL('./burst-sender.js', import.meta.url), { workerData: { url, task: SERVER_BENCH_TASK, prefix: `burst${++bursts}-` } });
    worker.on('message', (m: string) => {
      if (m === 'sending') return;
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', (error) => resolve(`error ${error.message}`));
  });
}

/** Opens the live feed of `session` and reads it until its first event has arrived (the session's view: `view`, else what came), then closes it. */
async function firstLiveEvent(http: string, session: string): Promise<string> {
  const ctrl = new AbortController();
  const res = await fetch(`${http}/v1/live?session=${session}`, { signal: ctrl.signal });
  if (res.status !== 200 || res.body === null) return (await res.arrayBuffer(), `HTTP ${res.status}`);
  const decoder = new TextDecoder();
  let text = '';
  let block = 0;
  try {
    for await (const chunk of res.body) {
      const from = Math.max(block, text.length - 1);
      text += decoder.decode(chunk as Uint8Array, { stream: true });
      // Events end at a blank line (the JSON holds no newline); comments (keep-alives) are skipped.
      for (let cut = text.indexOf('\n\n', from); cut >= 0; cut = text.indexOf('\n\n', block)) {
        if (text.startsWith('data: ', block)) return `HTTP 200 ${text.startsWith('data: {"type":"view"', block) ? 'view' : text.slice(block, block + 40)}`;
        block = cut + 2;
      }
    }
    return 'HTTP 200, ended before an event';
  } finally {
    ctrl.abort();
  }
}

/** A live session of 5,000 real-looking shell steps (distinct `ls`, `cat` of 50 files, sliding `sed` views) on a connection of its own, every step scored. */
async function liveSession(url: string): Promise<{ ws: WebSocket; session: string }> {
  const session = `live${++bursts}`;
  const kinds = [(i: number) => `ls ${i}`, (i: number) => `cat a${i % 50}.py`, (i: number) => `sed -n '${i},${i + 40}p' a.py`];
  const frames = [JSON.stringify({ type: 'start', session, task: SERVER_BENCH_TASK })];
  for (let i = 0; i < 5000; i++) frames.push(JSON.stringify({ type: 'step', session, seq: i, step: { tool: 'bash', action: { kind: 'shell', command: kinds[i % 3]!(i) }, observation: 'x' } }));
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  await new Promise<void>((resolve) => {
    ws.on('message', (raw) => {
      if (dataText(raw).includes('"seq":4999,')) resolve();
    });
    for (const f of frames) ws.send(f);
  });
  return { ws, session };
}

/** `n` live 5,000-step sessions ({@link liveSession}), built before the window; the run sends each its `end` at once and waits for every final. */
async function liveEnds(url: string, n: number): Promise<() => Promise<string>> {
  const live: Array<{ ws: WebSocket; session: string }> = [];
  for (let i = 0; i < n; i++) live.push(await liveSession(url));
  return async () => {
    const answers = await Promise.all(
      live.map(
        ({ ws, session }) =>
          new Promise<string>((resolve) => {
            ws.on('message', (raw) => {
              const f = JSON.parse(dataText(raw)) as { type: string; steps?: number; code?: string };
              if (f.type !== 'final' && f.type !== 'error') return;
              ws.close();
              resolve(f.type === 'final' ? `final ${f.steps}` : `error ${f.code}`);
            });
            ws.send(JSON.stringify({ type: 'end', session }));
          }),
      ),
    );
    return `${[...new Set(answers)].join('/')} x ${n}`;
  };
}

/**
 * A live session of 5,000 real-looking shell steps (distinct `ls`, `cat` of 50 files, sliding `sed` views), then 32 GETs at once of
 * `/v1/sessions/<id><route>`, or with the route `live`, 32 opens at once of its live feed, each read to its first event.
 */
async function pollLive(url: string, http: string, route: string): Promise<string> {
  const { ws, session } = await liveSession(url);
  const codes = await Promise.all(
    Array.from({ length: 32 }, () =>
      route === 'live' ? firstLiveEvent(http, session) : fetch(`${http}/v1/sessions/${session}${route}`).then(async (r) => (await r.arrayBuffer(), `HTTP ${r.status}`)),
    ),
  );
  ws.close();
  return `${[...new Set(codes)].join('/')} x 32`;
}

type Run = (url: string, http: string) => Promise<string>;

async function main(): Promise<void> {
  const corpus = findCorpus(positionals[0]);
  const traj = loadCorpus(corpus).trajectories.find((t) => t.file === SERVER_BENCH_FILE);
  if (!traj) throw new Error(`${SERVER_BENCH_FILE} not found in ${corpus}`);
  const steps = traj.steps;
  // Each scenario builds its payload first (outside the measured window). The pinger runs in a process of its own
  // (pinger-process.ts), so sending a large request from this thread does not delay its round trips.
  // `prepare` runs before the measured window (given the server's WebSocket URL: a scenario may build a session there).
  const scenarios: Array<{ name: string; prepare: (url: string) => Run | Promise<Run> }> = [
    {
      name: 'shell-1mb',
      prepare: () => {
        const frames = [
          { type: 'start', session: 'shell', task: SERVER_BENCH_TASK },
          { type: 'step', session: 'shell', seq: 0, step: { tool: 'bash', action: { kind: 'shell', command: bigCommand(steps) }, observation: '' } },
        ].map((f) => JSON.stringify(f));
        return (url) => wsRequest(url, frames, (f) => f.type === 'score');
      },
    },
    {
      name: 'python-850kb',
      prepare: () => {
        const frames = [
          { type: 'start', session: 'py', task: SERVER_BENCH_TASK },
          { type: 'step', session: 'py', seq: 0, step: { tool: 'str_replace_editor', action: { kind: 'edit', op: 'create', path: '/testbed/pkg/models.py', text: bigPython() } } },
          { type: 'step', session: 'py', seq: 1, step: { tool: 'str_replace_editor', action: { kind: 'view', path: '/testbed/pkg/models.py', range: [12000, 12010] } } },
        ].map((f) => JSON.stringify(f));
        return (url) => wsRequest(url, frames, (f) => f.type === 'score' && f.seq === 1);
      },
    },
    {
      // Text built to make a parser or pattern backtrack (found by fuzzing the step fields, 2026-12-05): one view of a
      // .py file of 127 KiB of `-->` lines (tree-sitter-python: minutes before its parse budget), 64 KiB of digits in
      // a command and of blanks before a code cell (two quadratic patterns: 2.2 and 2.1 s), 16 KiB of NULs in a command
      // (tree-sitter-bash: 1 s, asking no progress callback).
      name: 'hostile-text',
      prepare: () => {
        const session = 'hostile';
        const actions = [
          { kind: 'edit', op: 'create', path: '/testbed/pkg/evil.py', text: `${'-->'.repeat(33)}\n`.repeat(1300) },
          { kind: 'view', path: '/testbed/pkg/evil.py', range: [2, 2] },
          { kind: 'shell', command: `echo ${'1'.repeat(64 * 1024)}` },
          { kind: 'code', language: 'python', code: `${' '.repeat(64 * 1024)}x` },
          { kind: 'shell', command: '\0'.repeat(16 * 1024) },
        ];
        const frames = [{ type: 'start', session, task: SERVER_BENCH_TASK }, ...actions.map((action, seq) => ({ type: 'step', session, seq, step: { tool: 'bash', action, observation: 'ok' } }))].map(
          (f) => JSON.stringify(f),
        );
        return (url) => wsRequest(url, frames, (f) => f.type === 'score' && f.seq === actions.length - 1);
      },
    },
    {
      name: 'score-100k',
      prepare: () => {
        const body = JSON.stringify({ task: SERVER_BENCH_TASK, trajectory: stepsUpTo(steps, 100_000) });
        return (_url, http) => post(http, '/v1/score', body);
      },
    },
    {
      name: 'score-5000',
      prepare: () => {
        const body = JSON.stringify({ task: SERVER_BENCH_TASK, trajectory: stepsUpTo(steps, 5000) });
        return (_url, http) => post(http, '/v1/score', body);
      },
    },
    {
      // The web view's upload route (issue 25: 80,000 steps scored on the main thread stalled every client 18 s).
      name: 'score-steps-80k',
      prepare: () => {
        const body = JSON.stringify({ task: SERVER_BENCH_TASK, trajectory: stepsUpTo(steps, 80_000) });
        return (_url, http) => post(http, '/v1/score/steps', body);
      },
    },
    {
      name: 'score-steps-5000',
      prepare: () => {
        const body = JSON.stringify({ task: SERVER_BENCH_TASK, trajectory: stepsUpTo(steps, 5000) });
        return (_url, http) => post(http, '/v1/score/steps', body);
      },
    },
    {
      // One connection sends 20,000 tiny steps at once, from a worker thread (burst-sender.ts): frame pacing
      // (frame-batch.ts) is what keeps the other connections' turns coming.
      name: 'burst-20k',
      prepare: () => burst,
    },
    {
      // The same burst, then its four 5,000-step sessions left detached until the resume window (1 s in the bench
      // server) runs out and the sweep ends them: all four in one turn held everyone 0.9-1.2 s until stop 50.
      name: 'burst-20k-expiry',
      prepare: () => async (url) => {
        const answer = await burst(url);
        await new Promise((resolve) => setTimeout(resolve, 2500));
        return `${answer}, expired`;
      },
    },
    {
      // 32 polls at once of a live 5,000-step session's status (GET /v1/sessions/:id): each computed the whole
      // report, waste analysis included (~35 ms), until stop 50. The session is built first, in the same window.
      name: 'status-32',
      prepare: () => (url, http) => pollLive(url, http, ''),
    },
    {
      // 32 reads at once of the same session's whole step view (GET /v1/sessions/:id/steps, the web view's).
      name: 'steps-32',
      prepare: () => (url, http) => pollLive(url, http, '/steps'),
    },
    {
      // 32 opens at once of the same session's live feed (GET /v1/live?session=, the web view's session page),
      // each read until its first event, the session's whole view: built in one go per change until T28.
      name: 'live-32',
      prepare: () => (url, http) => pollLive(url, http, 'live'),
    },
    {
      // The `end` of a live 5,000-step session (built before the window): its final report (every state rebuilt, the
      // waste detectors) was made in one go, 136-203 ms with nothing else served, until T34.
      name: 'end-5000',
      prepare: (url) => liveEnds(url, 1),
    },
    {
      // Four such sessions, on four connections, ended at once.
      name: 'end-5000x4',
      prepare: (url) => liveEnds(url, 4),
    },
    {
      name: 'batch',
      prepare: () => {
        const body = JSON.stringify({
          items: Array.from({ length: 1024 }, (_, i) => ({ task: SERVER_BENCH_TASK, trajectory: stepsUpTo(steps.slice(i % 7), 120) })),
        });
        return (_url, http) => post(http, '/v1/score/batch', body);
      },
    },
  ];

  console.log(`${commandLine(import.meta.url)}\n${machineLine()}`);
  const server = await startTarget('steplens', (process.env.STALL_SERVER_ARGS ?? '').split(' ').filter(Boolean));
  const ping = await pingerProcess(server.url);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await ping.window();
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const idle = latencySummary(await ping.window());
  const idleLoop = await server.loopDelay();
  const rows: string[][] = [['idle (3 s)', '-', '-', fmt(idle.p50, 2), fmt(idle.p99, 2), fmt(idle.max, 1), String(idle.n), fmt(idleLoop.max, 1)]];
  const figures: Record<string, number | string> = { idle_ping_p99_ms: idle.p99, idle_ping_max_ms: idle.max };
  const targets: Target[] = [];
  for (const s of scenarios.filter((x) => only === undefined || only.includes(x.name))) {
    const run = await s.prepare(server.url);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await ping.window();
    await server.loopDelay();
    const began = performance.now();
    const answer = await run(server.url, server.http);
    const ms = performance.now() - began;
    const p = latencySummary(await ping.window());
    const loop = await server.loopDelay();
    rows.push([s.name, fmt(ms, 0), answer, fmt(p.p50, 2), fmt(p.p99, 2), fmt(p.max, 1), String(p.n), fmt(loop.max, 1)]);
    figures[`${s.name}_server_loop_delay_max_ms`] = loop.max;
    figures[`${s.name}_request_ms`] = ms;
    figures[`${s.name}_answer`] = answer;
    figures[`${s.name}_ping_p99_ms`] = p.p99;
    figures[`${s.name}_ping_max_ms`] = p.max;
    targets.push(target(`${s.name}: max ping round trip during the request`, p.max, '<', 250, 'ms'));
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await ping.stop();
  await server.close();
  printTable(['scenario', 'request ms', 'answer', 'ping p50 ms', 'ping p99 ms', 'ping max ms', 'pings', 'server loop delay max ms'], rows);
  writeResult(args.json, { bench: 'stall', command: commandLine(import.meta.url), machine: machine(), targets, figures });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
