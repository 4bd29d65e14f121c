import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { machineTicks, residentMb, stealPercent } from '../../bench/proc-cpu.js';

// Host steal is what ws-load prints beside each round's rate: it must be a share of the machine's ticks, not a count.
describe.runIf(existsSync('/proc/stat'))('machine ticks and host steal (/proc/stat)', () => {
  it('reads the total and steal ticks, steal never above the total', () => {
    const t = machineTicks();
    expect(t.total).toBeGreaterThan(0);
    expect(t.steal).toBeGreaterThanOrEqual(0);
    expect(t.steal).toBeLessThanOrEqual(t.total);
  });

  it('gives the steal since a sample as a percent in [0, 100] once ticks have passed', async () => {
    const since = machineTicks();
    await new Promise((resolve) => setTimeout(resolve, 50)); // idle ticks count too: 10 ms a tick per core
    const p = stealPercent(since);
    expect(p).toBeGreaterThanOrEqual(0);
    expect(p).toBeLessThanOrEqual(100);
  });

  it('is NaN when no tick has passed since the sample, not 0 % or a division by zero', () => {
    const now = machineTicks();
    expect(Number.isNaN(stealPercent({ total: now.total + 1e12, steal: now.steal }))).toBe(true);
  });
});

// ws-load prints the server's RSS beside its GC pauses: the young generation's size is paid in resident memory.
describe.runIf(existsSync('/proc/self/status'))('resident memory of a process (/proc/PID/status)', () => {
  it('reads this process: MB, as process.memoryUsage() tells, the peak never below the present', () => {
    const held = Buffer.alloc(32 * 2 ** 20, 1); // touched pages: resident
    // Read between two readings of process.memoryUsage(): other threads of this worker (a collector, a worker thread
    // a finished test file left terminating) can move the resident set by tens of MB meanwhile (CI on Node 24: 71.6 MB
    // apart when read once each). The closest of a few sandwiched reads must lie within the pair.
    let gap = Number.POSITIVE_INFINITY;
    let r = residentMb(process.pid);
    for (let attempt = 0; attempt < 5 && gap >= 16; attempt++) {
      const before = process.memoryUsage().rss / 2 ** 20;
      r = residentMb(process.pid);
      const after = process.memoryUsage().rss / 2 ** 20;
      gap = Math.min(gap, Math.max(0, Math.min(before, after) - r.now, r.now - Math.max(before, after)));
    }
    expect(r.now).toBeGreaterThan(32);
    expect(gap).toBeLessThan(16);
    expect(r.peak).toBeGreaterThanOrEqual(r.now);
    expect(held[held.length - 1]).toBe(1);
  });

  it('is NaN for a process that does not exist, not 0 MB', () => {
    const r = residentMb(2 ** 30);
    expect(Number.isNaN(r.now) && Number.isNaN(r.peak)).toBe(true);
  });
});
