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
  met: boolean;
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

/** Builds a target and prints `TARGET <name>: <value> <unit> (target <op> <bound>) MET|MISSED`. */
export function target(name: string, value: number, op: Target['op'], bound: number, unit = ''): Target {
  const met = Number.isFinite(value) && (op === '<=' ? value <= bound : op === '<' ? value < bound : value >= bound);
  const u = unit === '' ? '' : ` ${unit}`;
  const shown = Number.isFinite(value) ? String(Number(value.toPrecision(4))) : 'n/a';
  console.log(`TARGET ${name}: ${shown}${u} (target ${op} ${bound}${u}) ${met ? 'MET' : 'MISSED'}`);
  return { name, value, unit, op, bound, met };
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
