/**
 * What every benchmark reports besides its table: the machine it ran on,
 * `TARGET` lines that `run-all` greps, and the machine-readable result file
 * written with `--json FILE` (`-` for stdout) so two commits can be compared.
 */
import { execSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';

/** One target of issue 6: a measured value against its bound. */
export interface Target {
  name: string;
  value: number;
  unit: string;
  /** `<=`, `<` or `>=`: how `value` must compare to `bound`. */
  op: '<=' | '<' | '>=';
  bound: number;
  /** By the measured value (the point estimate). */
  met: boolean;
  /** 95 % interval of the value, where the bench has paired repeats to resample (bench/intervals.ts). */
  interval?: [number, number];
  /**
   * Whether the interval lies wholly on one side of the bound, so that `met` would not flip on another run of
   * the same code on the same machine as far as the repeats tell; false when the interval holds the bound,
   * absent without an interval.
   */
  settled?: boolean;
}

/** The machine a result was measured on. */
export interface Machine {
  date: string;
  nproc: number;
  cpu: string;
  node: string;
  platform: string;
  commit: string;
}

/** The result file of one bench run. */
export interface BenchResult {
  bench: string;
  command: string;
  machine: Machine;
  targets: Target[];
  /** Bench-specific figures (flat names, numbers in the unit the name says). */
  figures: Record<string, number | string>;
}

/** Date (UTC), cores, CPU model, Node version and git commit (`unknown` outside a checkout). */
export function machine(): Machine {
  let commit = 'unknown';
  try {
    commit = execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    // not a git checkout
  }
  return {
    date: new Date().toISOString(),
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    commit,
  };
}

/** One line describing the machine, for the top of a bench's output. */
export function machineLine(m: Machine = machine()): string {
  return `machine: ${m.date} nproc=${m.nproc} cpu="${m.cpu}" node=${m.node} ${m.platform} commit=${m.commit}`;
}

/**
 * Builds a target and prints `TARGET <name>: <value> <unit> [lo, hi] (target <op> <bound>) MET|MISSED`, the
 * interval when the bench gives one, and `, interval holds the bound` when it does (the verdict is not settled).
 */
export function target(name: string, value: number, op: Target['op'], bound: number, unit = '', interval?: [number, number]): Target {
  const passes = (x: number): boolean => Number.isFinite(x) && (op === '<=' ? x <= bound : op === '<' ? x < bound : x >= bound);
  const met = passes(value);
  const u = unit === '' ? '' : ` ${unit}`;
  const shown = (x: number): string => (Number.isFinite(x) ? String(Number(x.toPrecision(4))) : 'n/a');
  const settled = interval === undefined ? undefined : passes(interval[0]) === passes(interval[1]) && passes(interval[0]) === met;
  const iv = interval === undefined ? '' : ` [${shown(interval[0])}, ${shown(interval[1])}]`;
  console.log(`TARGET ${name}: ${shown(value)}${u}${iv} (target ${op} ${bound}${u}) ${met ? 'MET' : 'MISSED'}${settled === false ? ', interval holds the bound' : ''}`);
  return { name, value, unit, op, bound, met, ...(interval !== undefined ? { interval, settled } : {}) };
}

/** Writes the result as JSON to `file` (`-` = stdout); does nothing when `file` is undefined. */
export function writeResult(file: string | undefined, result: BenchResult): void {
  if (file === undefined) return;
  const text = `${JSON.stringify(result, null, 2)}\n`;
  if (file === '-') process.stdout.write(text);
  else writeFileSync(file, text);
}

/**
 * For benches with positional arguments: removes `--json FILE` from
 * `process.argv` (so positions stay as documented) and returns FILE.
 */
export function takeJsonFlag(): string | undefined {
  const i = process.argv.indexOf('--json');
  if (i < 0) return undefined;
  const file = process.argv[i + 1];
  process.argv.splice(i, 2);
  return file ?? '-';
}
