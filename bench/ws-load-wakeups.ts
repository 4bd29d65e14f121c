/**
 * A paced target's wakeups and CPU by thread over a window (/proc, Linux): the main thread's voluntary context
 * switches (each a sleep in epoll that ended with work: a frame, a timer), its involuntary ones (put off a core by
 * the machine's other jobs), and its CPU against the other threads' (GC helpers, compilers). At 500 steps/s the CPU a
 * step is mostly what one wakeup costs, not the step's work at a high rate (bench/README.md, p99-21).
 */
import { readFileSync } from 'node:fs';
import { threadSplit } from './proc-cpu.js';

export interface ThreadWakeups {
  voluntary: number;
  involuntary: number;
  /** CPU seconds of the main thread (user + system) and of every other thread. */
  mainCpu: number;
  otherCpu: number;
}

/** The `voluntary_ctxt_switches` and `nonvoluntary_ctxt_switches` lines of a /proc status text (NaN when absent). */
export function contextSwitches(status: string): { voluntary: number; involuntary: number } {
  const read = (key: string): number => {
    const m = new RegExp(`^${key}:\\s*(\\d+)`, 'm').exec(status);
    return m ? Number(m[1]) : Number.NaN;
  };
  return { voluntary: read('voluntary_ctxt_switches'), involuntary: read('nonvoluntary_ctxt_switches') };
}

/** {@link ThreadWakeups} of `pid`'s main thread now (NaN fields when /proc cannot tell). */
export function threadWakeups(pid: number): ThreadWakeups {
  let status = '';
  try {
    status = readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8');
  } catch {
    // Not Linux, or gone: NaN below.
  }
  const t = threadSplit(pid);
  return { ...contextSwitches(status), mainCpu: t.mainUser + t.mainSystem, otherCpu: t.others };
}

/** What happened between two readings, per scored step. */
export function perStep(before: ThreadWakeups, after: ThreadWakeups, steps: number): ThreadWakeups {
  const d = (k: keyof ThreadWakeups): number => (after[k] - before[k]) / steps;
  return { voluntary: d('voluntary'), involuntary: d('involuntary'), mainCpu: d('mainCpu'), otherCpu: d('otherCpu') };
}
