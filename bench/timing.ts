/**
 * Timing helpers shared by the benchmarks: percentiles (src/core/stats
 * `quantile`), a warm-up + measured loop, a bounded throughput loop, ratios,
 * a forced GC for memory readings and an aligned text table.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { quantile } from '../src/core/stats/index.js';

/** Summary of a sample (same unit as the sample). */
export interface Summary {
  n: number;
  median: number;
  p99: number;
  min: number;
  max: number;
  mean: number;
}

/** Median, p99, min, max and mean of `xs` (type-7 quantiles); NaN fields for an empty sample. */
export function summarize(xs: readonly number[]): Summary {
  const q = (p: number): number => quantile(xs, p) ?? Number.NaN;
  const mean = xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length;
  return { n: xs.length, median: q(0.5), p99: q(0.99), min: q(0), max: q(1), mean };
}

/** Microseconds since `start` (a `process.hrtime.bigint()` reading). */
export function usSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1000;
}

/**
 * Calls `run(i)` `warmup` times unmeasured, then `runs` times measured; returns
 * the µs of each measured call divided by the units it reports (1 when it returns nothing).
 */
export function measure(run: (i: number) => number | void, opts: { warmup: number; runs: number }): number[] {
  for (let i = 0; i < opts.warmup; i++) run(i);
  const out: number[] = [];
  for (let i = 0; i < opts.runs; i++) {
    const t0 = process.hrtime.bigint();
    const units = run(i);
    out.push(usSince(t0) / (typeof units === 'number' && units > 0 ? units : 1));
  }
  return out;
}

/** Calls `op` for `warmupMs`, then counts calls for `ms` (checked between calls); returns calls per second. */
export function throughput(op: () => void, ms: number, warmupMs = Math.min(500, ms / 4)): number {
  const until = (deadline: number): number => {
    let n = 0;
    while (performance.now() < deadline) {
      op();
      n++;
    }
    return n;
  };
  until(performance.now() + warmupMs);
  const began = performance.now();
  const n = until(began + ms);
  return (n * 1000) / (performance.now() - began);
}

/**
 * Alternates the `ops` in `rounds` rounds of `chunkMs` each (after one unmeasured
 * round), so that drift of the machine hits them alike; returns, per op, its
 * calls per second in each round.
 */
export function interleavedThroughput(ops: ReadonlyArray<() => void>, chunkMs: number, rounds: number): number[][] {
  const rates = ops.map(() => [] as number[]);
  for (let r = 0; r <= rounds; r++) {
    ops.forEach((op, i) => {
      const rate = throughput(op, chunkMs, 0);
      if (r > 0) rates[i]?.push(rate);
    });
  }
  return rates;
}

/** `a / b` as `×r.rr` (three significant digits below 10). */
export function ratio(a: number, b: number): string {
  const r = a / b;
  if (!Number.isFinite(r)) return 'n/a';
  return `×${r >= 100 ? r.toFixed(0) : r >= 10 ? r.toFixed(1) : r.toFixed(2)}`;
}

/** A number with `digits` decimals. */
export function fmt(x: number, digits = 1): string {
  return Number.isFinite(x) ? x.toFixed(digits) : 'n/a';
}

/** Prints an aligned table: first column left-aligned, the others right-aligned. */
export function printTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  for (const r of rows) console.log(line(r));
}

let gcFn: (() => void) | undefined;

/** Runs a full garbage collection (exposes V8's `gc` on first use). */
export function collectGarbage(): void {
  if (gcFn === undefined) {
    const existing = (globalThis as { gc?: () => void }).gc;
    if (existing) gcFn = existing;
    else {
      v8.setFlagsFromString('--expose-gc');
      gcFn = vm.runInNewContext('gc') as () => void;
    }
  }
  gcFn();
  gcFn();
}

/** `node <script relative to cwd> <args>`: the command that produced the output. */
export function commandLine(scriptUrl: string): string {
  const script = path.relative(process.cwd(), new URL(scriptUrl).pathname);
  return ['node', script, ...process.argv.slice(2)].join(' ');
}

/** p50 / p99 / max of a large latency sample (sorted as a typed array; type-7 quantiles). */
export function latencySummary(xs: Float64Array): { n: number; p50: number; p99: number; max: number } {
  const q = quantiles(xs, [0.5, 0.99, 1]);
  return { n: xs.length, p50: q[0]!, p99: q[1]!, max: q[2]! };
}

/** Linear-interpolated quantiles `ps` (0-1) of `xs` (NaN when empty). */
export function quantiles(xs: Float64Array, ps: readonly number[]): number[] {
  const s = Float64Array.from(xs).sort();
  return ps.map((p) => {
    if (s.length === 0) return Number.NaN;
    const h = (s.length - 1) * p;
    const lo = Math.floor(h);
    return s[lo]! + (h - lo) * (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!);
  });
}

/**
 * Runs each of `cases` cases once per round, `rounds` times, the order rotated by one each round (case
 * (k + r) mod n k-th in round r): a machine that drifts, or a cache that favours whoever runs second, hits every case alike.
 */
export function rotatingRounds(cases: number, rounds: number, run: (i: number) => void): void {
  for (const i of rotatingOrder(cases, rounds)) run(i);
}

/** The order {@link rotatingRounds} runs the cases in, for a loop that awaits each run. */
export function rotatingOrder(cases: number, rounds: number): number[] {
  const order: number[] = [];
  for (let r = 0; r < rounds; r++) for (let k = 0; k < cases; k++) order.push((k + r) % cases);
  return order;
}

/** The median of `xs` (NaN when empty). */
export function median(xs: readonly number[]): number {
  return summarize(xs).median;
}

/** CPU seconds (user + system) of the waited-for children of this process so far (Linux /proc; null elsewhere). */
export function childCpuSeconds(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of stat(5) (cutime, cstime), counted from the state field (3) here; clock ticks of 1/100 s.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}
