/**
 * Scale-out cost bench (issue 24, item 5): what one step costs a replica and
 * Redis, so the throughput of N replicas on N machines sharing one Redis can
 * be predicted (bench/scale-out-model.ts), and the model checked against what
 * runs here. A real redis-server on loopback (append-only file, `appendfsync
 * everysec` by default) and 2 steplens replicas (each its own process); the
 * driver in this process streams the real 79-step held-out run as whole
 * sessions (start, steps, end, next). Setups, rounds interleaved after a warm-up:
 *   u1 / u2  1 or 2 replicas, nothing pinned (the 1 vs 2 replica figure of this machine)
 *   p1       1 replica pinned to core 0; Redis and the driver on core 1
 *   p2       2 replicas both on core 0; Redis and the driver on core 1
 *   p1s      as p1 with sessions of the run's first `--short` steps (splits per-session from per-step cost)
 * Per setup: steps/s, CPU µs per step of the replicas (/proc) and of Redis (INFO cpu), Redis commands and
 * in-command µs per step by command (INFO commandstats), bytes from and to Redis and into its append-only
 * file per step, and how busy each core was (/proc/stat, every process of the machine).
 *
 *   node dist/bench/scale-out.js [--connections 16] [--sessions 4] [--depth 4] [--round-ms 3000] [--warmup-ms 1500]
 *     [--pairs 2] [--short 8] [--fsync everysec|always|off] [--redis-efficiency 1] [--corpus DIR] [--json FILE]
 */
import os from 'node:os';
import type { Redis } from 'ioredis';
import { redisClient } from './redis-client.js';
import { argsError, benchArgs, numberFlag } from './args.js';
import { allCores, coreBusy, coreTicks, pin, renice, schedSeconds } from './affinity.js';
import { SERVER_BENCH_FILE } from './corpus.js';
import { loadLine, sampleCpu } from './proc-cpu.js';
import { redisDelta, redisSum, sampleRedis, type RedisSample } from './redis-info.js';
import { isFsync, type RedisServer, type RedisFsync } from './redis-server.js';
import { machine, machineLine, writeResult } from './report.js';
import { predict, splitLifecycle, type StepCosts, type Totals } from './scale-out-model.js';
import type { TargetProcess } from './server-process.js';
import { CLOSED_LOOP_OPTIONS, closedLoopNumbers, openSplitDrivers, serverBenchSteps, startRedisReplicas } from './split-drivers.js';
import { commandLine, fmt, median, printTable, ratio } from './timing.js';
import { stepTemplates, type StepTemplates } from './ws-driver.js';

const { values: args } = benchArgs({
  options: {
    ...CLOSED_LOOP_OPTIONS,
    short: { type: 'string', default: '8' },
    fsync: { type: 'string', default: 'everysec' },
    'redis-efficiency': { type: 'string', default: '1' },
    nice: { type: 'string', default: '0' },
    json: { type: 'string' },
    corpus: { type: 'string' },
  },
});
// Every number checked before any process starts: one line naming a bad one, exit 2.
const n = {
  ...closedLoopNumbers(args),
  short: numberFlag(args, 'short', 'positive integer'),
  'redis-efficiency': numberFlag(args, 'redis-efficiency', 'positive number'),
  nice: numberFlag(args, 'nice', 'integer'),
};
const fsync: RedisFsync = isFsync(args.fsync) ? args.fsync : argsError(`--fsync needs everysec, always or off, got '${args.fsync}'`);
const GBIT = 125e6;
let runId = 0;

type SetupName = 'u1' | 'u2' | 'p1' | 'p2' | 'p1s';
interface Setup {
  name: SetupName;
  label: string;
  targets: TargetProcess[];
  templates: StepTemplates;
  /** taskset lists of replica A, replica B, redis-server and the driver. */
  cores: [string, string, string, string];
}

interface Round {
  rate: number;
  scored: number;
  sessions: number;
  wall: number;
  /** CPU seconds of replica A, replica B and the driver (/proc). */
  cpu: number[];
  redis: RedisSample;
  /** How busy each core was (all processes of the machine). */
  cores: number[];
  /** Seconds the replicas' main threads waited in a run queue for a core (summed). */
  wait: number;
}

async function round(s: Setup, pids: number[], info: Redis, ms: number): Promise<Round> {
  s.cores.forEach((c, i) => pin(pids[i]!, c));
  const drivers = await openSplitDrivers(
    s.targets.map((t) => t.url),
    { connections: n.connections, sessionsPerConnection: n.sessions, depth: n.depth, templates: s.templates, nextRun: () => ++runId },
  );
  const procs = [pids[0]!, pids[1]!, pids[3]!];
  const waited = (): number => schedSeconds(pids[0]!).wait + schedSeconds(pids[1]!).wait;
  const [cpu0, ticks0, wait0, redis0] = [sampleCpu(procs), coreTicks(), waited(), await sampleRedis(info)];
  const windows = await Promise.all(drivers.map((d) => d.closedLoop(0, ms)));
  const [cpu1, ticks1, wait1, redis1] = [sampleCpu(procs), coreTicks(), waited(), await sampleRedis(info)];
  await Promise.all(drivers.map((d) => d.close()));
  const failed = windows.find((w) => w.errors > 0);
  if (failed) throw new Error(`${s.name}: ${failed.errors} error frame(s), first: ${failed.firstError}`);
  return {
    rate: windows.reduce((n, w) => n + w.scored / w.seconds, 0),
    scored: windows.reduce((n, w) => n + w.scored, 0),
    sessions: windows.reduce((n, w) => n + (w.starts + w.finals) / 2, 0),
    wall: Math.max(...windows.map((w) => w.seconds)),
    cpu: cpu1.map((c, i) => c - cpu0[i]!),
    redis: redisDelta(redis0, redis1),
    cores: coreBusy(ticks0, ticks1),
    wait: wait1 - wait0,
  };
}

/** What the rounds of one setup add up to. */
interface Usage {
  median: number;
  rates: number[];
  scored: number;
  sessions: number;
  wall: number;
  replicaUs: number;
  driverUs: number;
  redisUs: number;
  redis: RedisSample;
  /** CPU seconds of the replicas per wall second (their share of a core). */
  replicaCores: number;
  /** Of the time the replicas' main threads could run, the share they waited for a core (taken by other processes). */
  replicaWaiting: number;
  cores: number[];
  /** Bytes of the step frames scored (mean frame of the setup's trajectory × steps): what the journal must carry. */
  frameBytes: number;
}

function usage(rs: Round[], templates: StepTemplates): Usage {
  const scored = rs.reduce((n, r) => n + r.scored, 0);
  const wall = rs.reduce((n, r) => n + r.wall, 0);
  const cpu = [0, 1, 2].map((i) => rs.reduce((n, r) => n + r.cpu[i]!, 0));
  const redis = redisSum(rs.map((r) => r.redis));
  return {
    median: median(rs.map((r) => r.rate)),
    rates: rs.map((r) => r.rate),
    scored,
    sessions: rs.reduce((n, r) => n + r.sessions, 0),
    wall,
    replicaUs: ((cpu[0]! + cpu[1]!) * 1e6) / scored,
    driverUs: (cpu[2]! * 1e6) / scored,
    redisUs: (redis.cpu * 1e6) / scored,
    redis,
    replicaCores: (cpu[0]! + cpu[1]!) / wall,
    frameBytes: (scored * templates.frames.reduce((n, f) => n + f.length, 0)) / templates.steps,
    replicaWaiting: rs.reduce((n, r) => n + r.wait, 0) / (rs.reduce((n, r) => n + r.wait, 0) + cpu[0]! + cpu[1]!),
    cores: rs[0]!.cores.map((_, i) => rs.reduce((n, r) => n + r.cores[i]! * r.wall, 0) / wall),
  };
}

async function main(): Promise<void> {
  const steps = await serverBenchSteps(args.corpus);
  const full = stepTemplates(steps);
  // Short sessions take every k-th step of the run (renumbered), so their steps are like the run's on average (a prefix is not: its steps are smaller).
  const every = Math.max(1, Math.floor(steps.length / n.short));
  const short = stepTemplates(
    steps
      .filter((_, i) => i % every === 0)
      .slice(0, n.short)
      .map((step, t) => ({ ...step, t })),
  );
  if (os.availableParallelism() < 2) throw new Error('scale-out pins processes to 2 cores: this machine has 1');
  const {
    redis,
    replicas: [a, b],
  } = await startRedisReplicas(fsync, (r) => (started = r));
  const info = redisClient(redis.url, { lazyConnect: false, maxRetriesPerRequest: 1 });
  // No append-only file rewrite during the rounds: it shrinks the file (bytes per step) and runs in a child process whose CPU INFO does not count here.
  await info.call('CONFIG', 'SET', 'auto-aof-rewrite-percentage', '0');
  const m = machine();
  const loadBefore = loadLine();
  console.log(`command: ${commandLine(import.meta.url)}`);
  console.log(machineLine(m));
  console.log(`load average before: ${loadBefore} (other jobs share this machine)`);
  console.log(
    `trajectory: ${SERVER_BENCH_FILE} (${full.steps} steps; short sessions: ${short.steps} of its steps, every ${every}th); redis-server pid ${redis.pid} (appendfsync ${fsync}), replicas ${a.pid} ${b.pid}, driver ${process.pid}; nice ${args.nice}`,
  );
  console.log(
    `closed loop: ${args.connections} connections × ${args.sessions} sessions, ${args.depth} steps in flight each, every session whole (start, steps, end); warm-up ${args['warmup-ms']} ms per setup, then ${args.pairs} pairs of ${args['round-ms']} ms rounds`,
  );
  const all = allCores();
  const setups: Setup[] = [
    { name: 'u1', label: '1 replica, unpinned', targets: [a], templates: full, cores: [all, all, all, all] },
    { name: 'u2', label: '2 replicas, unpinned', targets: [a, b], templates: full, cores: [all, all, all, all] },
    { name: 'p1', label: '1 replica on core 0; Redis, driver on 1', targets: [a], templates: full, cores: ['0', '0', '1', '1'] },
    { name: 'p2', label: '2 replicas on core 0; Redis, driver on 1', targets: [a, b], templates: full, cores: ['0', '0', '1', '1'] },
    { name: 'p1s', label: `p1, ${short.steps}-step sessions`, targets: [a], templates: short, cores: ['0', '0', '1', '1'] },
  ];
  const pids = [a.pid, b.pid, redis.pid ?? -1, process.pid];
  if (n.nice !== 0) pids.forEach((pid) => renice(pid, n.nice));
  const rounds = new Map<SetupName, Round[]>(setups.map((s) => [s.name, []]));
  for (const s of setups) await round(s, pids, info, n['warmup-ms']);
  for (let p = 0; p < n.pairs; p++) for (const s of p % 2 === 0 ? setups : [...setups].reverse()) rounds.get(s.name)!.push(await round(s, pids, info, n['round-ms']));
  pids.forEach((pid) => pin(pid, all));
  const use = Object.fromEntries(setups.map((s) => [s.name, usage(rounds.get(s.name)!, s.templates)])) as Record<SetupName, Usage>;
  report(setups, use, full.steps, short.steps, fsync, m, loadBefore);
  info.disconnect();
  await Promise.all([a.close(), b.close()]);
  await redis.destroy();
}

/** One check of the model: setup `n` predicted from the costs of setup `from`. */
interface Check {
  n: SetupName;
  from: SetupName;
  what: string;
  /** Predicted steps/s with whole cores, and with the CPU the replicas of `n` got. */
  whole: number;
  got: number;
}

function totals(u: Usage, cost: (u: Usage) => number): Totals {
  return { sessions: u.sessions, steps: u.scored, cost: cost(u) };
}

function report(setups: Setup[], use: Record<SetupName, Usage>, longSteps: number, shortSteps: number, fsync: RedisFsync, m: ReturnType<typeof machine>, loadBefore: string): void {
  const pct = (x: number): string => `${fmt(x * 100, 0)} %`;
  console.log('\nper setup (CPU µs per scored step; cores = how busy each core was, every process of the machine counted)');
  printTable(
    ['setup', 'steps/s per round', 'median', 'vs u1', 'replicas µs', 'redis µs', 'driver µs', 'replicas cores', 'replicas waited', 'core 0', 'core 1'],
    setups.map((s) => {
      const u = use[s.name];
      return [
        s.label,
        u.rates.map((r) => fmt(r, 0)).join(' '),
        fmt(u.median, 0),
        ratio(u.median, use.u1.median),
        fmt(u.replicaUs, 1),
        fmt(u.redisUs, 1),
        fmt(u.driverUs, 1),
        fmt(u.replicaCores, 2),
        pct(u.replicaWaiting),
        pct(u.cores[0]!),
        pct(u.cores[1]!),
      ];
    }),
  );
  console.log(
    'replicas cores = CPU seconds of the replicas per wall second; replicas waited = of the time their main threads could run, the share spent waiting in a run queue for a core (other processes had it)',
  );

  // Redis per step, by command, in the deployment's shape (p1: the replica saturated on a core of its own).
  const p1 = use.p1;
  const cmds = Object.keys(p1.redis.calls)
    .filter((k) => k !== 'info' && p1.redis.calls[k]! > 0)
    .sort((x, y) => p1.redis.calls[y]! - p1.redis.calls[x]!);
  console.log(
    `\nRedis per step in p1 (${fmt(p1.scored, 0)} steps, ${fmt(p1.sessions, 0)} sessions; commands run by Lua scripts are counted under their names and inside evalsha; ` + 'sorted by calls)',
  );
  printTable(
    ['command', 'calls/step', 'calls/session (p1s vs p1)'],
    cmds.map((k) => [
      k,
      fmt(p1.redis.calls[k]! / p1.scored, 3),
      fmt(
        splitLifecycle(
          totals(p1, (u) => u.redis.calls[k] ?? 0),
          totals(use.p1s, (u) => u.redis.calls[k] ?? 0),
        ).perSession,
        2,
      ),
    ]),
  );
  const scripts = p1.redis.calls.evalsha ?? 0;
  const appendCalls = scripts - 2 * p1.sessions;
  console.log(
    `Redis CPU ${fmt(p1.redisUs, 1)} µs/step; ≈ ${fmt(p1.scored / appendCalls, 1)} steps per append script call; ` +
      `bytes per step: step frame ${fmt(p1.frameBytes / p1.scored, 0)}, from replicas ${fmt(p1.redis.netIn / p1.scored, 0)}, to replicas ${fmt(p1.redis.netOut / p1.scored, 0)}, to the append-only file ${fmt(p1.redis.aof / p1.scored, 0)}`,
  );

  // Lifecycle: cost = per session × sessions + per step × steps, from p1 (long sessions) and p1s (short ones).
  const split = (f: (u: Usage) => number): { perSession: number; perStep: number } => splitLifecycle(totals(p1, f), totals(use.p1s, f));
  const rows: Array<[string, (u: Usage) => number, number]> = [
    ['replica CPU µs', (u) => u.replicaUs * u.scored, 1],
    ['Redis CPU µs', (u) => u.redisUs * u.scored, 1],
    ['Redis commands (excl. evalsha)', (u) => Object.entries(u.redis.calls).reduce((n, [k, v]) => (k === 'info' || k === 'evalsha' ? n : n + v), 0), 2],
    ['Redis script calls (evalsha)', (u) => u.redis.calls.evalsha ?? 0, 3],
    ['bytes into Redis beyond the step frames', (u) => u.redis.netIn - u.frameBytes, 0],
    ['bytes out of Redis', (u) => u.redis.netOut, 0],
  ];
  if (p1.redis.aof > 0) rows.push(['append-only file bytes beyond the step frames', (u) => u.redis.aof - u.frameBytes, 0]);
  console.log(`\nper session vs per step (solved from p1: ${longSteps}-step sessions and p1s: ${shortSteps}-step sessions)`);
  const splits = rows.map(([name, f, d]) => {
    const s = split(f);
    return { name, ...s, row: [name, fmt(s.perSession, d), fmt(s.perStep, d), fmt(s.perStep + s.perSession / longSteps, d)] };
  });
  printTable(
    ['cost', 'per session', 'per step', `per step at ${longSteps} steps`],
    splits.map((s) => s.row),
  );

  // The model checked: each setup predicted from another setup's costs (p1: 1 replica saturated on a core of its own, the
  // deployment's shape, predicts the others; u1 predicts p1), with whole cores and with the CPU the replicas got.
  const check = (n: SetupName, from: SetupName, what: string, model: (c: Usage) => number): Check => ({
    n,
    from,
    what,
    whole: model(use[from]),
    got: (use[n].replicaCores * 1e6) / use[from].replicaUs,
  });
  const onCore0 = (c: Usage): number => Math.min(1e6 / c.replicaUs, 1e6 / (c.redisUs + c.driverUs));
  const all3 = (c: Usage): number => c.replicaUs + c.redisUs + c.driverUs;
  const checks: Check[] = [
    check('p1', 'u1', 'replica on core 0, Redis + driver on core 1', onCore0),
    check('p2', 'p1', '2 replicas on core 0: as p1', onCore0),
    check('u1', 'p1', '1 replica ≤ 1 core, all on 2 cores', (c) => Math.min(1e6 / c.replicaUs, 2e6 / all3(c))),
    check('u2', 'p1', '2 replicas, all on 2 cores', (c) => 2e6 / all3(c)),
  ];
  console.log(
    '\nmodel check: each setup predicted from the µs per step of another (from), with whole cores, and with the CPU the replicas got ' +
      "(their CPU seconds per wall second × 1e6 / from's replica µs per step): the error left is the change in CPU per step between setups",
  );
  const pctErr = (x: number, p: number): string => `${x >= p ? '+' : ''}${fmt((x / p - 1) * 100, 1)} %`;
  printTable(
    ['setup', 'from', 'model', 'predicted (whole cores)', 'measured', 'error', 'predicted (CPU got)', 'error'],
    checks.map((k) => [k.n, k.from, k.what, fmt(k.whole, 0), fmt(use[k.n].median, 0), pctErr(use[k.n].median, k.whole), fmt(k.got, 0), pctErr(use[k.n].median, k.got)]),
  );

  // N replicas on N machines, one Redis, from p1's costs.
  const costs: StepCosts = { replicaUs: p1.replicaUs, redisUs: p1.redisUs, bytesIn: p1.redis.netIn / p1.scored };
  const eff = n['redis-efficiency'];
  const table = [1, 2, 4, 8, 16, 32].map((n) => predict(n, costs, eff, GBIT));
  console.log(
    `\nN replicas on N machines, one Redis (from p1: replica ${fmt(costs.replicaUs, 1)} µs/step, Redis ${fmt(costs.redisUs, 1)} µs/step at ${pct(eff)} of a core, ${fmt(costs.bytesIn, 0)} B/step into Redis over 1 Gb/s)`,
  );
  printTable(
    ['replicas', 'replicas could do', 'Redis ceiling', 'network ceiling', 'predicted steps/s', 'bound by', 'Redis core busy'],
    table.map((p) => [String(p.replicas), fmt(p.replicaCapacity, 0), fmt(p.redisCeiling, 0), fmt(p.networkCeiling, 0), fmt(p.steps, 0), p.bound, pct(p.redisBusy)]),
  );
  const loadAfter = loadLine();
  console.log(`load average after: ${loadAfter}`);

  const figures: Record<string, number | string> = { fsync, load_before: loadBefore, load_after: loadAfter, redis_efficiency: eff };
  for (const s of setups) {
    const u = use[s.name];
    Object.assign(figures, {
      [`${s.name}_steps_per_s`]: u.median,
      [`${s.name}_replica_cpu_us_per_step`]: u.replicaUs,
      [`${s.name}_redis_cpu_us_per_step`]: u.redisUs,
      [`${s.name}_driver_cpu_us_per_step`]: u.driverUs,
      [`${s.name}_replica_cores`]: u.replicaCores,
      [`${s.name}_core0_busy`]: u.cores[0]!,
      [`${s.name}_core1_busy`]: u.cores[1]!,
    });
  }
  for (const k of cmds) figures[`p1_redis_calls_per_step_${k}`] = p1.redis.calls[k]! / p1.scored;
  figures.p1_redis_bytes_in_per_step = p1.redis.netIn / p1.scored;
  figures.p1_redis_bytes_out_per_step = p1.redis.netOut / p1.scored;
  figures.p1_aof_bytes_per_step = p1.redis.aof / p1.scored;
  for (const s of splits) {
    const key = s.name.replace(/[^a-z]+/gi, '_').toLowerCase();
    figures[`split_${key}_per_session`] = s.perSession;
    figures[`split_${key}_per_step`] = s.perStep;
  }
  for (const k of checks) {
    figures[`check_${k.n}_predicted_whole_cores`] = k.whole;
    figures[`check_${k.n}_error_whole_cores`] = use[k.n].median / k.whole - 1;
    figures[`check_${k.n}_error_cpu_got`] = use[k.n].median / k.got - 1;
  }
  for (const p of table) figures[`model_${p.replicas}_replicas_steps_per_s`] = p.steps;
  figures.ratio_u2_over_u1 = use.u2.median / use.u1.median;
  writeResult(args.json, { bench: 'scale-out', command: commandLine(import.meta.url), machine: m, targets: [], figures });
}

/** The redis-server of the run: stopped on failure too (replica processes exit with their parent, it does not). */
let started: RedisServer | undefined;

main().catch(async (error: unknown) => {
  process.stderr.write(`scale-out: ${(error as Error).stack ?? String(error)}\n`);
  await started?.destroy();
  process.exit(1);
});
