/**
 * CPU pinning and per-core load for the scale-out bench (Linux): `taskset`
 * moves every thread of a running process onto the given cores (threads it
 * starts later inherit that), and /proc/stat tells how busy each core was over
 * a window, whoever used it, so a bench can say how much of a core its
 * pinned process got on a machine shared with other jobs.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

/** Every core of the machine, as a `taskset` list (`0-1` on 2 cores). */
export function allCores(): string {
  return `0-${os.availableParallelism() - 1}`;
}

/** Moves every thread of `pid` onto `cores` (a `taskset -c` list); throws when taskset fails. */
export function pin(pid: number, cores: string): void {
  const run = spawnSync('taskset', ['-a', '-p', '-c', cores, String(pid)], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`taskset -a -p -c ${cores} ${pid} failed: ${run.stderr || run.error?.message || `exit ${run.status}`}`);
}

/** Busy and total clock ticks of one core since boot. */
export interface CoreTicks {
  busy: number;
  total: number;
}

/** Per core (cpu0, cpu1, ...): ticks from /proc/stat; busy = user + nice + system + irq + softirq + steal. */
export function coreTicks(): CoreTicks[] {
  const out: CoreTicks[] = [];
  for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
    if (!/^cpu\d+ /.test(line)) continue;
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
    const busy = user + nice + system + irq + softirq + steal;
    out.push({ busy, total: busy + idle + iowait });
  }
  return out;
}

/** How busy each core was between two samples (0-1). */
export function coreBusy(before: readonly CoreTicks[], after: readonly CoreTicks[]): number[] {
  return after.map((a, i) => {
    const b = before[i] ?? { busy: 0, total: 0 };
    return a.total > b.total ? (a.busy - b.busy) / (a.total - b.total) : Number.NaN;
  });
}

/** Sets the nice value of every thread of `pid` (threads it starts later inherit it); throws when renice fails. */
export function renice(pid: number, nice: number): void {
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const run = spawnSync('renice', ['-n', String(nice), '-p', tid], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`renice -n ${nice} -p ${tid} failed: ${run.stderr || run.error?.message || `exit ${run.status}`}`);
  }
}

/** Seconds the main thread of `pid` has run on a core and waited in a run queue for one (/proc/PID/schedstat). */
export function schedSeconds(pid: number): { run: number; wait: number } {
  try {
    const [run = Number.NaN, wait = Number.NaN] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(' ').map(Number);
    return { run: run / 1e9, wait: wait / 1e9 };
  } catch {
    return { run: Number.NaN, wait: Number.NaN };
  }
}
