/**
 * ws-load at low rates and its half-load row (bench/README.md, p99-21): the target's event-loop delay monitor wakes
 * it as often as `--loop-monitor-ms` says (at 1 ms, 1,000 times a second: more wakeups than steps at 500 steps/s), the
 * paced rows count the target main thread's wakeups from /proc, and `half-paced` halves the paced shape's own
 * capacity while `half` keeps the rate before (half the pipelined max). Counted, never timed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startTarget } from '../../bench/server-process.js';
import { needsCapacity, pacedRates, rateListError } from '../../bench/ws-load-paced.js';
import { contextSwitches, perStep, threadWakeups } from '../../bench/ws-load-wakeups.js';

describe('ws-load rate list (p99-21)', () => {
  it('reads half-paced beside half and numbers, and refuses anything else', () => {
    expect(rateListError('half-paced,500,half')).toBeUndefined();
    expect(rateListError('half-pacedx')).toMatch(/^--rate needs half-paced, half or positive numbers/);
    expect(needsCapacity('500,half-paced')).toBe(true);
    expect(needsCapacity('500,half')).toBe(false);
  });

  it('halves the paced capacity for half-paced and the pipelined max for half, in the order given', () => {
    expect(pacedRates('half-paced,500,half', 27_000, 12_000)).toEqual([
      { label: 'half-paced', rate: 6_000 },
      { label: '500', rate: 500 },
      { label: 'half', rate: 13_500 },
    ]);
    expect(() => pacedRates('half-paced', 27_000)).toThrow(/capacity measured first/);
    expect(() => pacedRates('half', Number.NEGATIVE_INFINITY, 12_000)).toThrow(/closed-loop shape/);
  });
});

describe('a target main thread wakeups (/proc)', () => {
  it('reads the context switch lines of a status text', () => {
    const status = 'Name:\tnode\nvoluntary_ctxt_switches:\t1234\nnonvoluntary_ctxt_switches:\t56\n';
    expect(contextSwitches(status)).toEqual({ voluntary: 1234, involuntary: 56 });
    expect(contextSwitches('Name:\tnode\n').voluntary).toBeNaN();
  });

  it.skipIf(process.platform !== 'linux')('counts a sleep of this thread as a voluntary switch, and divides by steps', async () => {
    const before = threadWakeups(process.pid);
    for (let i = 0; i < 3; i++) await sleep(2);
    const after = threadWakeups(process.pid);
    expect(after.voluntary - before.voluntary).toBeGreaterThanOrEqual(1);
    const d = perStep({ voluntary: 10, involuntary: 2, mainCpu: 0.01, otherCpu: 0 }, { voluntary: 30, involuntary: 6, mainCpu: 0.03, otherCpu: 0.002 }, 10);
    expect([d.voluntary, d.involuntary]).toEqual([2, 0.4]);
    expect(d.mainCpu).toBeCloseTo(0.002, 12);
    expect(d.otherCpu).toBeCloseTo(0.0002, 12);
  });
});

describe("the target's event-loop delay monitor (--loop-monitor-ms)", () => {
  it('is off at 0 (no timer, no samples) and fires its timer when on', { timeout: 60_000 }, async () => {
    const off = await startTarget('echo', [], {}, undefined, 0);
    const on = await startTarget('echo', [], {}, undefined, 5);
    try {
      await Promise.all([off.loopDelay(), on.loopDelay()]);
      await sleep(200);
      const [a, b] = await Promise.all([off.loopDelay(), on.loopDelay()]);
      expect(a.samples).toBe(0);
      expect([a.p99, a.max]).toEqual([0, 0]);
      expect(b.samples).toBeGreaterThan(0);
      expect([a.resolutionMs, b.resolutionMs]).toEqual([0, 5]);
    } finally {
      await Promise.all([off.close(), on.close()]);
    }
  });
});
