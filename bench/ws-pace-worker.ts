/**
 * One of ws-load's paced drivers in a worker thread (bench/ws-load-paced.ts, `--paced-drivers N`): its share of the
 * connections and sessions, its share of the rate, its schedule offset from the others' so the sends of all of them
 * interleave. In a thread of its own, one driver's sends and garbage do not hold up the others' reading of scores:
 * what a single driver thread at 13,000 steps/s adds to every target's tail (bench/README.md, p99-19).
 * Messages: it posts `{ ready }` once its sessions are open and staggered, waits for `{ go: epochMs }`, paces, posts
 * `{ window }` (arrival times as epoch ms, so windows of threads can be merged), and closes on `{ close }`.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { LoadDriver } from './ws-driver.js';

/** What the parent hands each paced worker. */
export interface PaceWorkerData {
  url: string;
  connections: number;
  sessionsPerConnection: number;
  task: string;
  frames: Uint8Array[];
  run: number;
  stagger: 'spread' | 'by-slot' | undefined;
  rate: number;
  warmupMs: number;
  ms: number;
  /** This worker's schedule starts this long after the common start (its place in the interleaving). */
  offsetMs: number;
}

const data = workerData as PaceWorkerData;
const port = parentPort!;
const frames = data.frames.map((f) => Buffer.from(f));
const d = await LoadDriver.open({ ...data, templates: { frames, steps: frames.length }, depth: 0 });
if (data.stagger !== undefined) await d.stagger(data.stagger);
const go = new Promise<number>((resolve) => port.once('message', (m: { go: number }) => resolve(m.go)));
port.postMessage({ ready: true });
const t0 = (await go) - performance.timeOrigin + data.offsetMs;
const delay = monitorEventLoopDelay({ resolution: 1 });
// The loop delay is read over the recorded window only, as the in-process driver's is.
setTimeout(() => delay.enable(), Math.max(0, t0 - performance.now() + data.warmupMs));
const w = await d.pace(data.rate, data.warmupMs, data.ms, t0);
delay.disable();
const arrivals = w.arrivals.map((x) => x + performance.timeOrigin);
port.postMessage({ window: { ...w, arrivals }, loopDelay: { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 } });
await new Promise((resolve) => port.once('message', resolve));
await d.close();
port.close();
