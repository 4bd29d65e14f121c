/**
 * Who sends ws-load's open loop (bench/ws-load-paced.ts): the bench's main thread (`--paced-drivers 0`, as before
 * p99-19) or worker threads (bench/ws-pace-worker.ts, one per 5,000 steps/s up to N), each with its share of the
 * connections and of the rate, their schedules offset so their sends interleave; their windows merged into one.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { SERVER_BENCH_TASK } from './corpus.js';
import type { TargetProcess } from './server-process.js';
import { nextRun } from './ws-load-closed.js';
import { LoadDriver, sleep, type PacedCounts, type StepTemplates, type Window } from './ws-driver.js';
import type { PaceWorkerData } from './ws-pace-worker.js';

/** What every paced round shares: the trajectory, the flags of the open loop. */
export interface OpenLoop {
  templates: StepTemplates;
  pacedMs: number;
  pacedConnections: number;
  /** How the sessions' phases are spread first, or undefined to keep them in lockstep (`--no-stagger`). */
  stagger: 'spread' | 'by-slot' | undefined;
  /** Driver threads (`--paced-drivers`): 0 = the bench's own main thread (as before p99-19), N = up to N worker threads. */
  drivers: number;
}

/** A paced window as the drivers saw it: every step's latencies, and the drivers' own event-loop delay. */
export type PacedWindow = Window & PacedCounts;
export interface Driven {
  w: PacedWindow;
  driverDelay: { p99: number; max: number };
  /** Closes the drivers' connections (after the server's readings: closing detaches every session). */
  close: () => Promise<void>;
}

/** The open loop from this thread (`--paced-drivers 0`): `onRecording` runs once the 1 s warm-up is over. */
export async function driveHere(t: TargetProcess, rate: number, connections: number, sessions: number, loop: OpenLoop, onRecording: () => Promise<void>): Promise<Driven> {
  const d = await LoadDriver.open({ url: t.url, connections, sessionsPerConnection: Math.ceil(sessions / connections), task: SERVER_BENCH_TASK, templates: loop.templates, depth: 0, run: nextRun() });
  if (loop.stagger !== undefined) await d.stagger(loop.stagger);
  const driver = monitorEventLoopDelay({ resolution: 1 });
  const paced = d.pace(rate, 1000, loop.pacedMs);
  await sleep(1000);
  await onRecording();
  driver.enable();
  const w0 = await paced;
  driver.disable();
  // Arrivals in epoch ms, as the workers give them (tail30 lays them beside the target's GC pauses).
  const w = { ...w0, arrivals: w0.arrivals.map((x) => x + performance.timeOrigin) };
  return { w, driverDelay: { p99: driver.percentile(99) / 1e6, max: driver.max / 1e6 }, close: () => d.close() };
}

/** Steps a second one driver thread is given before a second thread is used (`--paced-drivers` caps the count). */
export const STEPS_PER_DRIVER = 5000;

/**
 * How `connections` connections split over the driver threads (the first ones one more), and where each thread's
 * schedule starts: thread i at i / rate, so the threads' steps, each at rate / threads, interleave evenly. A thread per
 * {@link STEPS_PER_DRIVER} steps/s, at most `drivers`: at 500 steps/s two threads' 1 ms ticks cost the driver 13-19 % of
 * a core against 8-11 % for one (bench/README.md, p99-19), and one thread there has work for a tick in 10.
 */
export function driverShares(connections: number, drivers: number, rate: number): Array<{ connections: number; offsetMs: number }> {
  const n = Math.max(1, Math.min(drivers, connections, Math.ceil(rate / STEPS_PER_DRIVER)));
  return Array.from({ length: n }, (_, i) => ({ connections: Math.floor(connections / n) + (i < connections % n ? 1 : 0), offsetMs: (i * 1000) / rate }));
}

/** Windows of several driver threads as one, in arrival order (arrivals in epoch ms). */
export function mergeWindows(ws: readonly PacedWindow[]): PacedWindow {
  const cat = <T extends Float64Array | Int32Array>(pick: (w: PacedWindow) => T, make: (n: number) => T): T => {
    const out = make(ws.reduce((n, w) => n + pick(w).length, 0));
    let at = 0;
    for (const w of ws) {
      out.set(pick(w), at);
      at += pick(w).length;
    }
    return out;
  };
  const f64 = (n: number): Float64Array => new Float64Array(n);
  const arrivals = cat((w) => w.arrivals, f64);
  const order = Array.from(arrivals.keys()).sort((i, j) => arrivals[i]! - arrivals[j]!);
  const sorted = <T extends Float64Array | Int32Array>(xs: T): T => xs.map((_, i) => xs[order[i]!]!) as T;
  const sum = (pick: (w: PacedWindow) => number): number => ws.reduce((n, w) => n + pick(w), 0);
  return {
    scored: sum((w) => w.scored),
    seconds: Math.max(...ws.map((w) => w.seconds)),
    latencies: sorted(cat((w) => w.latencies, f64)),
    dueLatencies: sorted(cat((w) => w.dueLatencies, f64)),
    latencySteps: sorted(
      cat(
        (w) => w.latencySteps,
        (n) => new Int32Array(n),
      ),
    ),
    arrivals: sorted(arrivals),
    errors: sum((w) => w.errors),
    firstError: ws.find((w) => w.firstError !== undefined)?.firstError,
    starts: sum((w) => w.starts),
    finals: sum((w) => w.finals),
    startLatencies: cat((w) => w.startLatencies, f64),
    endLatencies: cat((w) => w.endLatencies, f64),
    sent: sum((w) => w.sent),
    skipped: sum((w) => w.skipped),
    scoredOwn: sum((w) => w.scoredOwn),
    inFlightAtStart: sum((w) => w.inFlightAtStart),
    inFlightAtEnd: sum((w) => w.inFlightAtEnd),
  };
}

/** The open loop from `loop.drivers` worker threads (bench/ws-pace-worker.ts), started together. */
export async function driveInWorkers(t: TargetProcess, rate: number, connections: number, sessions: number, loop: OpenLoop, onRecording: () => Promise<void>): Promise<Driven> {
  const perConnection = Math.ceil(sessions / connections);
  const shares = driverShares(connections, loop.drivers, rate);
  const workers = shares.map((s) => {
    const data: PaceWorkerData = {
      url: t.url,
      connections: s.connections,
      sessionsPerConnection: perConnection,
      task: SERVER_BENCH_TASK,
      frames: loop.templates.frames.map((f) => new Uint8Array(f)),
      run: nextRun(),
      stagger: loop.stagger,
      rate: rate / shares.length,
      warmupMs: 1000,
      ms: loop.pacedMs,
      offsetMs: s.offsetMs,
    };
    return new Worker(new URL('./ws-pace-worker.js', import.meta.url), { workerData: data });
  });
  const next = <T>(w: Worker): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      w.once('message', resolve);
      w.once('error', reject);
    });
  await Promise.all(workers.map((w) => next(w)));
  const go = performance.timeOrigin + performance.now() + 20;
  const results = workers.map((w) => next<{ window: PacedWindow; loopDelay: { p99: number; max: number } }>(w));
  for (const w of workers) w.postMessage({ go });
  await sleep(go - performance.timeOrigin - performance.now() + 1000);
  await onRecording();
  const done = await Promise.all(results);
  const close = async (): Promise<void> => {
    const exited = workers.map((w) => new Promise((resolve) => w.once('exit', resolve)));
    for (const w of workers) w.postMessage({ close: true });
    await Promise.all(exited);
  };
  const delays = done.map((r) => r.loopDelay);
  return { w: mergeWindows(done.map((r) => r.window)), driverDelay: { p99: Math.max(...delays.map((x) => x.p99)), max: Math.max(...delays.map((x) => x.max)) }, close };
}
