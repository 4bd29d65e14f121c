/**
 * CPU time of processes from /proc (Linux): what a bench process, a server
 * target or redis-server spent over a window, so a bench can report CPU per
 * step beside its throughput. On a shared machine wall-clock rates swing with
 * other jobs; CPU per step swings much less.
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

/** CPU seconds (user + system) process `pid` has used; NaN when /proc cannot tell. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds of process `pid` split by thread: the main thread's user and system time, and all other threads' (GC helpers, libuv's pool, workers). */
export interface ThreadSplit {
  mainUser: number;
  mainSystem: number;
  others: number;
}

function statFields(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return text.slice(text.lastIndexOf(') ') + 2).split(' ');
}

/** {@link ThreadSplit} of `pid` now (NaN fields when /proc cannot tell; a thread that ended is not counted). */
export function threadSplit(pid: number): ThreadSplit {
  const out: ThreadSplit = { mainUser: Number.NaN, mainSystem: Number.NaN, others: 0 };
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const f = statFields(`/proc/${pid}/task/${tid}/stat`);
      const [user, system] = [Number(f[11]) / 100, Number(f[12]) / 100];
      if (Number(tid) === pid) [out.mainUser, out.mainSystem] = [user, system];
      else out.others += user + system;
    }
  } catch {
    out.others = Number.NaN;
  }
  return out;
}

/** CPU seconds of each of `pids`, in order. */
export function sampleCpu(pids: readonly number[]): number[] {
  return pids.map(cpuSeconds);
}

/** The machine's CPU ticks from /proc/stat: all of them, and those the hypervisor gave to another guest (`steal`). */
export interface MachineTicks {
  total: number;
  steal: number;
}

/** {@link MachineTicks} now (zeros when /proc cannot tell). */
export function machineTicks(): MachineTicks {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '').trim().split(/\s+/).slice(1, 9).map(Number);
    return { total: fields.reduce((n, x) => n + x, 0), steal: fields[7] ?? 0 };
  } catch {
    return { total: 0, steal: 0 };
  }
}

/**
 * Percent of the machine's CPU time since `since` that the hypervisor took for other guests: on a VM whose host is
 * busy, a round's rate drops with it while the CPU a process spent per step does not (NaN when /proc cannot tell).
 */
export function stealPercent(since: MachineTicks): number {
  const now = machineTicks();
  const total = now.total - since.total;
  return total > 0 ? (100 * (now.steal - since.steal)) / total : Number.NaN;
}

/** The 1, 5 and 15 minute load averages, as `uptime` prints them. */
export function loadLine(): string {
  return os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
}

/** Resident memory of `pid` in MB, now (`VmRSS`) and its peak since it started (`VmHWM`); NaN when /proc cannot tell. */
export function residentMb(pid: number): { now: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return { now: Number.NaN, peak: Number.NaN };
  }
}
