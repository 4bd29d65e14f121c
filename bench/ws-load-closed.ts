/**
 * ws-load's closed loop (bench/ws-load.ts): rounds of full sessions against one target at a time, A B B A A B ...,
 * each round's rate, latencies, CPU per process and by thread, and the host's steal over its window.
 */
import { SERVER_BENCH_TASK } from './corpus.js';
import { pairedPooledRatioInterval, pairedRatioInterval } from './intervals.js';
import { machineTicks, sampleCpu, stealPercent, threadSplit, type ThreadSplit } from './proc-cpu.js';
import type { TargetProcess } from './server-process.js';
import { fmt, median } from './timing.js';
import { LoadDriver, type StepTemplates, type Window } from './ws-driver.js';

const RAMP_MS = 300;

/** One load shape at one connection count. */
export interface Config {
  shape: 'lifecycle' | 'pipelined';
  connections: number;
  sessions: number;
  depth: number;
}

/** The load shapes the flags ask for, one per connection count. */
export function configs(flags: {
  shapes: string;
  lifecycleConnections: readonly number[];
  lifecycleDepth: number;
  connections: readonly number[];
  sessions: number;
  depth: number;
}): Config[] | string {
  const out: Config[] = [];
  for (const shape of flags.shapes.split(',')) {
    if (shape === 'lifecycle') {
      for (const c of flags.lifecycleConnections) out.push({ shape, connections: c, sessions: 1, depth: flags.lifecycleDepth });
    } else if (shape === 'pipelined') {
      for (const c of flags.connections) out.push({ shape, connections: c, sessions: flags.sessions, depth: flags.depth });
    } else if (shape !== '') return `--shapes: unknown shape '${shape}' (lifecycle, pipelined)`;
  }
  return out;
}

let runId = 0;
/** A fresh run number for the session ids of the next driver (closed and paced rounds share the count). */
export const nextRun = (): number => ++runId;

/** What a closed-loop round needs besides its target: the trajectory and whose CPU it samples. */
export interface ClosedLoop {
  templates: StepTemplates;
  /** The steplens target, the echo target and this driver. */
  pids: number[];
  roundMs: number;
  warmupMs: number;
  rounds: number;
}

export interface Round extends Window {
  /** CPU seconds of steplens, echo and the driver over the recorded window. */
  cpu: number[];
  /** The target's CPU seconds over the window by thread (main thread user/system, other threads). */
  threads: ThreadSplit;
  /** Percent of the machine's CPU time the hypervisor took over the window (proc-cpu `stealPercent`). */
  steal: number;
}

async function round(t: TargetProcess, loop: ClosedLoop, c: Config, ms: number): Promise<Round> {
  const d = await LoadDriver.open({ url: t.url, connections: c.connections, sessionsPerConnection: c.sessions, task: SERVER_BENCH_TASK, templates: loop.templates, depth: c.depth, run: nextRun() });
  await new Promise((resolve) => setTimeout(resolve, RAMP_MS));
  const before = sampleCpu(loop.pids);
  const split0 = threadSplit(t.pid);
  const ticks = machineTicks();
  const w = await d.closedLoop(0, ms);
  const steal = stealPercent(ticks);
  const cpu = sampleCpu(loop.pids).map((x, i) => x - before[i]!);
  const split1 = threadSplit(t.pid);
  const threads: ThreadSplit = { mainUser: split1.mainUser - split0.mainUser, mainSystem: split1.mainSystem - split0.mainSystem, others: split1.others - split0.others };
  await d.close();
  if (w.errors > 0) throw new Error(`${t.kind}: ${w.errors} error frame(s), first: ${w.firstError}`);
  return { ...w, cpu, threads, steal };
}

/** `main user U + sys S, other threads O` µs per step over rounds `rs` of one target. */
export function threadLine(rs: Round[]): string {
  const steps = rs.reduce((n, r) => n + r.scored, 0);
  const us = (k: keyof ThreadSplit): string => fmt((rs.reduce((n, r) => n + r.threads[k], 0) * 1e6) / steps, 1);
  return `main thread user ${us('mainUser')} + system ${us('mainSystem')}, other threads ${us('others')}`;
}

export interface ConfigResult extends Config {
  a: Round[];
  b: Round[];
  rateA: number;
  rateB: number;
  ratio: number;
  /** 95 % interval of the ratio over the pairs of rounds (round i of A and of B), with 5 rounds or more. */
  interval: [number, number] | undefined;
  /** The same pairs' 95 % interval of `cpuB / cpuA` (the echo's CPU a message over steplens' a step): not the target, beside it. */
  cpuInterval: [number, number] | undefined;
  /** CPU µs per step: steplens (in A rounds), echo (in B rounds), the driver in A and B rounds. */
  cpuA: number;
  cpuB: number;
  driverA: number;
  driverB: number;
}

const perStep = (rs: Round[], i: number): number => (rs.reduce((n, r) => n + r.cpu[i]!, 0) * 1e6) / rs.reduce((n, r) => n + r.scored, 0);

/** One warm-up round of A and B, then `loop.rounds` rounds of each in the order A B B A A B ... */
export async function throughput(a: TargetProcess, b: TargetProcess, loop: ClosedLoop, c: Config): Promise<ConfigResult> {
  await round(a, loop, c, loop.warmupMs);
  await round(b, loop, c, loop.warmupMs);
  const runs: Record<'A' | 'B', Round[]> = { A: [], B: [] };
  // A B B A A B ...: drift of the machine hits both alike.
  for (let i = 0; i < 2 * loop.rounds; i++) {
    const which = i % 4 === 0 || i % 4 === 3 ? 'A' : 'B';
    runs[which].push(await round(which === 'A' ? a : b, loop, c, loop.roundMs));
  }
  const rate = (w: Window): number => w.scored / w.seconds;
  const rateA = median(runs.A.map(rate));
  const rateB = median(runs.B.map(rate));
  const interval = pairedRatioInterval(runs.A.map(rate), runs.B.map(rate), 'median');
  const cost = (rs: Round[], i: number) => rs.map((r) => ({ cost: r.cpu[i]!, count: r.scored }));
  const cpuInterval = pairedPooledRatioInterval(cost(runs.B, 1), cost(runs.A, 0));
  return {
    ...c,
    a: runs.A,
    b: runs.B,
    rateA,
    rateB,
    ratio: rateA / rateB,
    interval,
    cpuInterval,
    cpuA: perStep(runs.A, 0),
    cpuB: perStep(runs.B, 1),
    driverA: perStep(runs.A, 2),
    driverB: perStep(runs.B, 2),
  };
}

/** The latencies of several windows in one array. */
export const pooled = (ws: Window[]): Float64Array => {
  const out = new Float64Array(ws.reduce((n, w) => n + w.latencies.length, 0));
  let at = 0;
  for (const w of ws) {
    out.set(w.latencies, at);
    at += w.latencies.length;
  }
  return out;
};
