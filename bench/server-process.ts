/**
 * A benchmark target in its own process (so the load driver and the server
 * each get a core): `steplens` (buildApp seeded from data/example, listening
 * on 127.0.0.1:0) or `echo` (a bare `ws` server that parses each frame and
 * answers a small JSON reply shaped like the steplens one). Started with
 * `fork`, it sends `{ url }` over IPC once listening; it answers `{ cmd: 'mem' }`
 * with `process.memoryUsage()` after a forced GC, and exits on `{ cmd: 'close' }`
 * or when the parent goes away. Use {@link startTarget} from the parent.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';
import { dataText } from '../src/client/frames.js';
import { buildApp } from '../src/server/app.js';
import type { AppOptions } from '../src/server/options.js';
import { bundledReferencesDir } from '../src/package-files.js';
import { GcWatch, type GcPauses } from './gc-watch.js';
import { collectGarbage } from './timing.js';

export type { GcPauses } from './gc-watch.js';

export type TargetKind = 'steplens' | 'echo';

/** Event-loop delay percentiles in ms (perf_hooks, 1 ms resolution), and the GC pauses of the same window. */
export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
  /** Times the monitor's timer fired (each a wakeup of an idle target); 0 with no monitor. */
  samples: number;
  /** The monitor's interval (ms): it records whole intervals between its timer's runs, so an idle loop reads this. */
  resolutionMs: number;
  gc: GcPauses;
}

/** A running target process. */
export interface TargetProcess {
  kind: TargetKind;
  /** `ws://.../v1/stream` for steplens, `ws://...` for echo. */
  url: string;
  /** `http://host:port` (steplens only: the HTTP routes). */
  http: string;
  pid: number;
  /** heapUsed etc. of the target after a forced GC. */
  memory: () => Promise<NodeJS.MemoryUsage>;
  /** The target's event-loop delay (ms) since the previous call (or since it started). */
  loopDelay: () => Promise<LoopDelay>;
  close: () => Promise<void>;
}

/** The reply of the echo server to one client frame (same leading keys as steplens' frames). */
function echoReply(text: string): string {
  const m = JSON.parse(text) as { type?: string; session?: string; seq?: number; task?: string };
  if (m.type === 'step') {
    return JSON.stringify({
      type: 'score',
      session: m.session,
      seq: m.seq,
      t: m.seq,
      stage: 'E',
      score: { total: 0.5, struct: 0.5, cov: 0.5, coh: 1, temp: 0.9 },
      reward: 0.01,
      tier: 'Solid',
      reference: { kind: 'pta', version: 1, paths: 2 },
    });
  }
  if (m.type === 'start') return JSON.stringify({ type: 'started', session: m.session, task: m.task, format: 'steplens', reference: { kind: 'pta', version: 1, paths: 2 } });
  if (m.type === 'end') return JSON.stringify({ type: 'final', session: m.session });
  return JSON.stringify({ type: 'error', code: 'bad_message', message: 'unknown type' });
}

async function serveEcho(): Promise<{ url: string; http: string; close: () => Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => wss.once('listening', resolve));
  wss.on('connection', (ws) => ws.on('message', (data) => ws.send(echoReply(dataText(data)))));
  const { port } = wss.address() as { port: number };
  return {
    url: `ws://127.0.0.1:${port}`,
    http: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => resolve());
      }),
  };
}

async function serveSteplens(options: Partial<AppOptions>): Promise<{ url: string; http: string; close: () => Promise<void> }> {
  const data = await mkdtemp(path.join(os.tmpdir(), 'steplens-bench-'));
  const seed = bundledReferencesDir();
  // Short resume window: sessions of closed bench connections are freed within a second, not kept for 5 minutes.
  // `--redis URL --redis-prefix P` (see startTarget's `redis`): references and sessions in Redis, as a replica.
  const at = process.argv.indexOf('--redis');
  const redis = at >= 0 ? { url: process.argv[at + 1]!, prefix: process.argv[process.argv.indexOf('--redis-prefix') + 1] ?? 'bench:', replicaId: `bench-${process.pid}` } : undefined;
  const app = await buildApp({ dataDir: data, seedDirs: [seed], logLevel: 'silent', resumeWindowMs: 1000, ...(redis ? { redis } : {}), ...options });
  const http = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: `${http.replace(/^http/, 'ws')}/v1/stream`,
    http,
    close: async () => {
      await app.close();
      await rm(data, { recursive: true, force: true });
    },
  };
}

async function child(kind: TargetKind, options: Partial<AppOptions>, loopMs: number): Promise<void> {
  const server = kind === 'echo' ? await serveEcho() : await serveSteplens(options);
  const bye = async (): Promise<void> => {
    await server.close();
    process.exit(0);
  };
  // The monitor is a timer of `loopMs`: at 1 ms it wakes an idle target 1,000 times a second, twice as often as the
  // steps of ws-load's 500 steps/s row (p99-21); 0 leaves it off (delays read 0).
  const delay = monitorEventLoopDelay({ resolution: Math.max(1, loopMs) });
  if (loopMs > 0) delay.enable();
  const gc = new GcWatch();
  process.on('message', (m: { cmd?: string }) => {
    if (m.cmd === 'lag') {
      const samples = loopMs > 0 ? delay.count : 0;
      const [p50, p99] = samples > 0 ? [delay.percentile(50) / 1e6, delay.percentile(99) / 1e6] : [0, 0];
      process.send?.({ lag: { p50, p99, max: delay.max / 1e6, samples, resolutionMs: loopMs, gc: gc.take() } });
      delay.reset();
    } else if (m.cmd === 'mem') {
      collectGarbage();
      process.send?.({ memory: process.memoryUsage() });
    } else if (m.cmd === 'close') void bye();
  });
  process.on('disconnect', () => void bye());
  process.send?.({ url: server.url, http: server.http });
}

/** This module as compiled JavaScript (a test running the TypeScript sources forks the built copy: `npm run build` first). */
function compiledSelf(): string {
  const self = fileURLToPath(import.meta.url);
  if (self.endsWith('.js')) return self;
  const built = path.resolve(path.dirname(self), '../dist/bench/server-process.js');
  if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build first`);
  return built;
}

/**
 * Forks this module as a `kind` target; `execArgv` e.g. `['--cpu-prof', '--cpu-prof-dir=DIR']`; `options`
 * are given to buildApp (JSON: limits, resumeWindowMs, dataDir...); `redis`: a steplens replica keeping
 * references and sessions in that Redis, under that key prefix; `loopMs`: the resolution of the target's
 * event-loop delay monitor (a timer that wakes it that often; 0: no monitor).
 */
export async function startTarget(kind: TargetKind, execArgv: string[] = [], options: Partial<AppOptions> = {}, redis?: { url: string; prefix: string }, loopMs = 1): Promise<TargetProcess> {
  const args = ['--target', kind, '--options', JSON.stringify(options), '--loop-ms', String(loopMs), ...(redis ? ['--redis', redis.url, '--redis-prefix', redis.prefix] : [])];
  const proc: ChildProcess = fork(compiledSelf(), args, { execArgv: ['--expose-gc', ...execArgv], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = <T>(): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null): void => reject(new Error(`${kind} target exited with ${code}`));
      proc.once('exit', onExit);
      proc.once('message', (m) => {
        proc.off('exit', onExit);
        resolve(m as T);
      });
    });
  const { url, http } = await next<{ url: string; http: string }>();
  return {
    kind,
    url,
    http,
    pid: proc.pid ?? -1,
    memory: async () => {
      const reply = next<{ memory: NodeJS.MemoryUsage }>();
      proc.send({ cmd: 'mem' });
      return (await reply).memory;
    },
    loopDelay: async () => {
      const reply = next<{ lag: LoopDelay }>();
      proc.send({ cmd: 'lag' });
      return (await reply).lag;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        // A target that does not stop within 30 s is killed, and said so (a bench must not hang on it).
        const timer = setTimeout(() => {
          process.stderr.write(`server-process: ${kind} target did not stop within 30 s of close: killed\n`);
          proc.kill('SIGKILL');
        }, 30_000);
        proc.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        proc.send({ cmd: 'close' });
      }),
  };
}

const kindArg = process.argv.indexOf('--target');
if (kindArg > 0 && process.send !== undefined) {
  const kind = process.argv[kindArg + 1] === 'echo' ? 'echo' : 'steplens';
  const optionsArg = process.argv.indexOf('--options');
  const options = optionsArg > 0 ? (JSON.parse(process.argv[optionsArg + 1] ?? '{}') as Partial<AppOptions>) : {};
  const loopArg = process.argv.indexOf('--loop-ms');
  child(kind, options, loopArg > 0 ? Number(process.argv[loopArg + 1]) : 1).catch((error: unknown) => {
    process.stderr.write(`server-process (${kind}): ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
