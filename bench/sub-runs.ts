/**
 * Repeated sub-runs (fcast29): a ratio measured in one process read a tight interval over that process's blocks or
 * pairs, and the next run of the same build read outside it (forecast push 1.277 [1.241, 1.310], then 1.206 and
 * 1.158 alone): a process's JIT decisions, code layout and heap are shared by all its passes, so its blocks are not
 * independent repetitions of the figure. The benches that compare two variants now run their pairs in several
 * child processes one after another and give the interval over the children: each child's ratio is one
 * repetition, and the row reads their geometric mean with a Student-t interval on the log ratios.
 */
import { spawnSync } from 'node:child_process';
import { binomialCdf } from '../src/core/stats/binomial.js';

/** t(0.975, df) for df = 1 .. 10 (two-sided 95 %); the benches run 4-8 sub-runs. */
const T975 = [12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157, 2.228139];

/** Fewest sub-runs an interval is given for (with 2 the t quantile is 12.7: an interval that says nothing). */
export const MIN_SUB_RUNS = 3;

/** The geometric mean of the sub-runs' ratios and, from {@link MIN_SUB_RUNS} of them, a 95 % t interval on their logs. */
export function subRunRatio(ratios: readonly number[]): { value: number; interval: [number, number] | undefined } {
  const logs = ratios.map(Math.log);
  const n = logs.length;
  const m = logs.reduce((a, b) => a + b, 0) / n;
  if (n < MIN_SUB_RUNS || !logs.every(Number.isFinite)) return { value: Math.exp(m), interval: undefined };
  const sd = Math.sqrt(logs.reduce((a, x) => a + (x - m) ** 2, 0) / (n - 1));
  const t = T975[n - 2] ?? 1.96 + 2.5 / (n - 1);
  const half = (t * sd) / Math.sqrt(n);
  return { value: Math.exp(m), interval: [Math.exp(m - half), Math.exp(m + half)] };
}

/**
 * Runs `node script ...args` `count` times, one after another (never side by side: two cores, shared), and returns
 * what each printed as JSON on its last line of output; throws on a child that failed.
 */
export function runSubRuns<T>(script: string, args: readonly string[], count: number): T[] {
  const out: T[] = [];
  for (let i = 0; i < count; i++) {
    const run = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (run.status !== 0) throw new Error(`sub-run ${i + 1} of ${count} (${script}) failed: ${run.stderr}`);
    const last = run.stdout.trimEnd().split('\n').pop() ?? '';
    out.push(JSON.parse(last) as T);
  }
  return out;
}

/**
 * The median of sub-runs' values and its distribution-free 95 % interval (tail30): order statistics k and n + 1 - k
 * with the largest k whose coverage, 1 - 2 P(Binomial(n, 1/2) < k), is still 95 % or more; from 6 sub-runs (with 5,
 * even the lowest and highest cover only 93.75 %). For figures such as a window's p99, whose sub-runs spread with
 * the machine by a factor of ten or more (one busy window): no shape of their distribution is assumed.
 */
export function subRunMedian(values: readonly number[]): { value: number; interval: [number, number] | undefined; coverage: number | undefined } {
  const xs = [...values].sort((a, b) => a - b);
  const n = xs.length;
  const mid = n % 2 === 1 ? xs[(n - 1) / 2]! : (xs[n / 2 - 1]! + xs[n / 2]!) / 2;
  let k = 0;
  while (k + 1 <= n / 2 && 1 - 2 * binomialCdf(k, n, 0.5) >= 0.95) k++;
  if (k === 0) return { value: mid, interval: undefined, coverage: undefined };
  return { value: mid, interval: [xs[k - 1]!, xs[n - k]!], coverage: 1 - 2 * binomialCdf(k - 1, n, 0.5) };
}
