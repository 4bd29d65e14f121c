/**
 * CPU time of processes from /proc (Linux): what a bench process, a server
 * target or redis-server spent over a window, so a bench can report CPU per
 * step beside its throughput. On a shared machine wall-clock rates swing with
 * other jobs; CPU per step swings much less.
 */
import { readFileSync } from 'node:fs';
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

/** CPU seconds of each of `pids`, in order. */
export function sampleCpu(pids: readonly number[]): number[] {
  return pids.map(cpuSeconds);
}

/** The 1, 5 and 15 minute load averages, as `uptime` prints them. */
export function loadLine(): string {
  return os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
}
