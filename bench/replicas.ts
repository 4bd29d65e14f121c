/**
 * Scale-out benchmark (issue 17): steplens replicas sharing one Redis
 * (real redis-server on loopback, append-only file, `appendfsync everysec` by
 * default), each replica its own process, the load driver in this process.
 *  1. throughput, closed loop: the same C connections × M sessions (`depth`
 *     steps in flight each) against 1 replica, then split over 2 replicas;
 *     rounds 1 2 2 1 ... after a warm-up; ratio = median 2-replica steps/s /
 *     median 1-replica steps/s (target >= 1.6 on 2 cores). An embedded
 *     replica (no Redis) runs the same rounds for the cost of durability on throughput.
 *  2. paced (open loop) at a fixed rate against 1 Redis replica and the
 *     embedded one: step-to-score latency p50/p99 (target p50 < 2 ms with Redis).
 * Prints, per setup, how busy the cores were (CPU seconds of redis-server,
 * replicas and driver over the rounds) and CPU µs per step of each process,
 * and the load average, since the machine is shared.
 *
 *   node dist/bench/replicas.js [--connections 16] [--sessions 4] [--depth 4] [--round-ms 3000] [--warmup-ms 1500] [--pairs 2]
 *     [--paced-rate 1000] [--paced-sessions 200] [--paced-connections 10] [--paced-ms 6000] [--fsync everysec|always|off] [--json FILE]
 */
import os from 'node:os';
import { argsError, benchArgs, numberFlag } from './args.js';
import { SERVER_BENCH_FILE, SERVER_BENCH_TASK } from './corpus.js';
import { pairedRatioInterval } from './intervals.js';
import { sampleCpu } from './proc-cpu.js';
import { isFsync, type RedisServer, type RedisFsync } from './redis-server.js';
import { machine, machineLine, target, writeResult, type Target } from './report.js';
import { startTarget, type TargetProcess } from './server-process.js';
import { CLOSED_LOOP_OPTIONS, closedLoopNumbers, openSplitDrivers, serverBenchSteps, startRedisReplicas } from './split-drivers.js';
import { commandLine, fmt, latencySummary, median, printTable, ratio } from './timing.js';
import { LoadDriver, stepTemplates, type StepTemplates, type Window } from './ws-driver.js';

const { values: args } = benchArgs({
  options: {
    ...CLOSED_LOOP_OPTIONS,
    'paced-rate': { type: 'string', default: '1000' },
    'paced-sessions': { type: 'string', default: '200' },
    'paced-connections': { type: 'string', default: '10' },
    'paced-ms': { type: 'string', default: '6000' },
    fsync: { type: 'string', default: 'everysec' },
    json: { type: 'string' },
    corpus: { type: 'string' },
  },
});
// Every number checked before any process starts: one line naming a bad one, exit 2.
const n = {
  ...closedLoopNumbers(args),
  'paced-rate': numberFlag(args, 'paced-rate', 'positive number'),
  'paced-sessions': numberFlag(args, 'paced-sessions', 'positive integer'),
  'paced-connections': numberFlag(args, 'paced-connections', 'positive integer'),
  'paced-ms': numberFlag(args, 'paced-ms', 'positive number'),
};
const fsync: RedisFsync = isFsync(args.fsync) ? args.fsync : argsError(`--fsync needs everysec, always or off, got '${args.fsync}'`);
let runId = 0;

/** CPU seconds of every process of the bench (same order as `names`). */
type CpuSample = number[];
let pids: number[] = [];
const sampleAll = (): CpuSample => sampleCpu(pids);

interface Round {
  rate: number;
  scored: number;
  wall: number;
  /** CPU seconds per process over the recorded window. */
  cpu: number[];
}

/** One closed-loop round with the connections split evenly over `targets`; steps/s summed, CPU per process over the window. */
async function round(targets: TargetProcess[], templates: StepTemplates, ms: number): Promise<Round> {
  const drivers = await openSplitDrivers(
    targets.map((t) => t.url),
    { connections: n.connections, sessionsPerConnection: n.sessions, depth: n.depth, templates, nextRun: () => ++runId },
  );
  const before = sampleAll();
  const windows: Window[] = await Promise.all(drivers.map((d) => d.closedLoop(0, ms)));
  const cpu = sampleAll().map((c, i) => c - before[i]!);
  await Promise.all(drivers.map((d) => d.close()));
  const failed = windows.find((w) => w.errors > 0);
  if (failed) throw new Error(`${failed.errors} error frame(s), first: ${failed.firstError}`);
  const scored = windows.reduce((n, w) => n + w.scored, 0);
  const wall = Math.max(...windows.map((w) => w.seconds));
  return { rate: windows.reduce((n, w) => n + w.scored / w.seconds, 0), scored, wall, cpu };
}

async function paced(t: TargetProcess, templates: StepTemplates): Promise<{ p50: number; p99: number; max: number; n: number; scored: number }> {
  const sessions = n['paced-sessions'];
  const pc = Math.min(n['paced-connections'], sessions);
  const d = await LoadDriver.open({ url: t.url, connections: pc, sessionsPerConnection: Math.ceil(sessions / pc), task: SERVER_BENCH_TASK, templates, depth: 0, run: ++runId });
  await d.stagger();
  const w = await d.pace(n['paced-rate'], 1000, n['paced-ms']);
  await d.close();
  if (w.errors > 0) throw new Error(`paced: ${w.errors} error frame(s), first: ${w.firstError}`);
  return { ...latencySummary(w.latencies), scored: w.scored / w.seconds };
}

async function main(): Promise<void> {
  const templates = stepTemplates(await serverBenchSteps(args.corpus));
  const {
    redis,
    replicas: [r1, r2],
  } = await startRedisReplicas(fsync, (r) => (started = r));
  const embedded = await startTarget('steplens');
  const m = machine();
  const loadBefore = os.loadavg();
  console.log(`command: ${commandLine(import.meta.url)}`);
  console.log(machineLine(m));
  console.log(`load average before: ${loadBefore.map((x) => fmt(x, 2)).join(' ')} (other engineers share this machine)`);
  console.log(
    `trajectory: ${SERVER_BENCH_FILE} (${templates.steps} steps); redis-server pid ${redis.pid} (appendfsync ${fsync}), replicas pids ${r1.pid} ${r2.pid}, embedded pid ${embedded.pid}, driver pid ${process.pid}`,
  );
  console.log(
    `closed loop: ${args.connections} connections × ${args.sessions} sessions, ${args.depth} steps in flight each; warm-up ${args['warmup-ms']} ms per setup, then ${args.pairs} pairs of ${args['round-ms']} ms rounds (1 2 2 1 ..., embedded after each pair)`,
  );

  const setups: Record<'one' | 'two' | 'embedded', TargetProcess[]> = { one: [r1], two: [r1, r2], embedded: [embedded] };
  const rounds: Record<keyof typeof setups, Round[]> = { one: [], two: [], embedded: [] };
  const names = ['redis-server', 'replica 1', 'replica 2', 'embedded', 'driver'];
  pids = [redis.pid ?? -1, r1.pid, r2.pid, embedded.pid, process.pid];
  const warm = n['warmup-ms'];
  for (const s of Object.values(setups)) await round(s, templates, warm);
  for (let p = 0; p < n.pairs; p++) {
    for (const which of p % 2 === 0 ? (['one', 'two'] as const) : (['two', 'one'] as const)) rounds[which].push(await round(setups[which], templates, n['round-ms']));
    rounds.embedded.push(await round(setups.embedded, templates, n['round-ms']));
  }
  const med = { one: median(rounds.one.map((r) => r.rate)), two: median(rounds.two.map((r) => r.rate)), embedded: median(rounds.embedded.map((r) => r.rate)) };
  /** Per setup: CPU µs per step of each process, and how busy the 2 cores were. */
  const usage = (rs: Round[]): { perStep: number[]; busy: number } => {
    const scored = rs.reduce((n, r) => n + r.scored, 0);
    const wall = rs.reduce((n, r) => n + r.wall, 0);
    const cpu = names.map((_, i) => rs.reduce((n, r) => n + r.cpu[i]!, 0));
    return { perStep: cpu.map((c) => (c * 1e6) / scored), busy: cpu.reduce((a, b) => a + b, 0) / (os.availableParallelism() * wall) };
  };
  const use = { one: usage(rounds.one), two: usage(rounds.two), embedded: usage(rounds.embedded) };
  const us = (u: { perStep: number[] }, i: number): string => fmt(u.perStep[i]!, 0);
  printTable(
    ['setup', 'steps/s per round', 'median', 'vs 1 replica', 'cores busy', 'µs CPU/step: replicas', 'redis', 'driver'],
    [
      ['1 replica + Redis', rounds.one.map((r) => fmt(r.rate, 0)).join(' '), fmt(med.one, 0), '×1.00', `${fmt(use.one.busy * 100, 0)} %`, us(use.one, 1), us(use.one, 0), us(use.one, 4)],
      [
        '2 replicas + Redis',
        rounds.two.map((r) => fmt(r.rate, 0)).join(' '),
        fmt(med.two, 0),
        ratio(med.two, med.one),
        `${fmt(use.two.busy * 100, 0)} %`,
        fmt(use.two.perStep[1]! + use.two.perStep[2]!, 0),
        us(use.two, 0),
        us(use.two, 4),
      ],
      [
        '1 embedded (no Redis)',
        rounds.embedded.map((r) => fmt(r.rate, 0)).join(' '),
        fmt(med.embedded, 0),
        ratio(med.embedded, med.one),
        `${fmt(use.embedded.busy * 100, 0)} %`,
        us(use.embedded, 3),
        '-',
        us(use.embedded, 4),
      ],
    ],
  );
  console.log(`cores busy = CPU seconds of redis-server, the replicas and the driver over ${os.availableParallelism()} × the rounds' wall time (other engineers' processes not counted)`);

  const withRedis = await paced(r1, templates);
  const without = await paced(embedded, templates);
  printTable(
    ['paced (open loop)', 'rate', 'scored/s', 'p50 ms', 'p99 ms', 'max ms'],
    [
      ['1 replica + Redis', args['paced-rate'] ?? '', fmt(withRedis.scored, 0), fmt(withRedis.p50, 3), fmt(withRedis.p99, 3), fmt(withRedis.max, 2)],
      ['1 embedded (no Redis)', args['paced-rate'] ?? '', fmt(without.scored, 0), fmt(without.p50, 3), fmt(without.p99, 3), fmt(without.max, 2)],
    ],
  );
  console.log(`durability cost per step (p50 with Redis - p50 embedded): ${fmt(withRedis.p50 - without.p50, 3)} ms`);
  const loadAfter = os.loadavg();
  console.log(`load average after: ${loadAfter.map((x) => fmt(x, 2)).join(' ')}`);

  // Pair p ran one and two replicas back to back: its rounds are resampled together (an interval from 5 pairs up).
  const twoOverOne = pairedRatioInterval(
    rounds.two.map((r) => r.rate),
    rounds.one.map((r) => r.rate),
    'median',
  );
  const targets: Target[] = [
    target('replicas 2/1 steps/s (Redis, 2 cores)', med.two / med.one, '>=', 1.6, '', twoOverOne),
    target('p50 step-to-score latency with Redis on loopback', withRedis.p50, '<', 2, 'ms'),
  ];
  const figures: Record<string, number | string> = {
    one_replica_steps_per_s: med.one,
    two_replicas_steps_per_s: med.two,
    embedded_steps_per_s: med.embedded,
    ratio_two_over_one: med.two / med.one,
    ratio_embedded_over_redis: med.embedded / med.one,
    paced_redis_p50_ms: withRedis.p50,
    paced_redis_p99_ms: withRedis.p99,
    paced_embedded_p50_ms: without.p50,
    paced_embedded_p99_ms: without.p99,
    load_before_1m: loadBefore[0] ?? Number.NaN,
    load_after_1m: loadAfter[0] ?? Number.NaN,
    fsync,
    cores_busy_one: use.one.busy,
    cores_busy_two: use.two.busy,
    cores_busy_embedded: use.embedded.busy,
    replica_cpu_us_per_step_one: use.one.perStep[1]!,
    replica_cpu_us_per_step_two: use.two.perStep[1]! + use.two.perStep[2]!,
    redis_cpu_us_per_step_two: use.two.perStep[0]!,
    driver_cpu_us_per_step_two: use.two.perStep[4]!,
    embedded_cpu_us_per_step: use.embedded.perStep[3]!,
  };
  await Promise.all([r1.close(), r2.close(), embedded.close()]);
  await redis.destroy();
  writeResult(args.json, { bench: 'replicas', command: commandLine(import.meta.url), machine: m, targets, figures });
}

/** The redis-server of the run: stopped on failure too (replica processes exit with their parent, it does not). */
let started: RedisServer | undefined;

main().catch(async (error: unknown) => {
  process.stderr.write(`replicas: ${(error as Error).stack ?? String(error)}\n`);
  await started?.destroy();
  process.exit(1);
});
