/**
 * ws-load's account of a target's GC over a window (bench/gc-watch.ts, bench/README.md gc22): mark-compacts are
 * counted apart from incremental marking steps and weak callbacks (before, every entry that was not a scavenge was a
 * "full" GC), and each window carries the heap's sizes at its two ends. Counted, never timed.
 */
import { constants as perf } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { gcLine, GcWatch, slowStepsInGc, summarizeGc } from '../../bench/gc-watch.js';

describe('GC over a bench window (gc22)', () => {
  it('counts mark-compacts apart from incremental marking and weak-callback entries', () => {
    const g = summarizeGc([
      { kind: perf.NODE_PERFORMANCE_GC_MINOR, duration: 2 },
      { kind: perf.NODE_PERFORMANCE_GC_MAJOR, duration: 10 },
      { kind: perf.NODE_PERFORMANCE_GC_INCREMENTAL, duration: 3 },
      { kind: perf.NODE_PERFORMANCE_GC_WEAKCB, duration: 1 },
      { kind: perf.NODE_PERFORMANCE_GC_MINOR, duration: 4 },
    ]);
    expect(g.minor).toMatchObject({ n: 2, total: 6, max: 4 });
    expect(g.major).toEqual({ n: 1, total: 10, max: 10 });
    expect(g.other).toEqual({ n: 2, total: 4, max: 3 });
  });

  it('gives each window the heap at its start (the previous take) and its end, and sees a forced GC as a mark-compact', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const watch = new GcWatch();
    const first = watch.take();
    gc();
    await sleep(50);
    const second = watch.take();
    expect(second.heap.start).toEqual(first.heap.end);
    expect(second.major.n).toBeGreaterThanOrEqual(1);
    expect(second.heap.end.youngMb).toBeGreaterThan(0);
    expect(second.heap.end.oldMb).toBeGreaterThan(0);
    // Each stop-the-world pause in time (epoch ms), to lay beside a driver's steps (tail30).
    expect(second.spans.length).toBeGreaterThanOrEqual(second.major.n);
    const now = Date.now();
    for (const s of second.spans) {
      expect(s.at).toBeGreaterThan(now - 60_000);
      expect(s.at).toBeLessThanOrEqual(now + 1000);
      expect(s.ms).toBeGreaterThanOrEqual(0);
    }
    const line = gcLine(second);
    expect(line).toContain(`${second.major.n} mark-compacts`);
    expect(line).toMatch(/old space [\d.]+ → [\d.]+ MB used over the window, young generation \d+ MB/);
  });
});

describe('slow steps laid beside the GC pauses (tail30)', () => {
  it('counts the steps over the bound that were in flight during a pause, and only those', () => {
    // Steps as (latency, arrival) in epoch-like ms; one pause 1000-1005.
    const latencies = Float64Array.from([0.4, 3, 2.5, 6, 2.2, 1.9]);
    const arrivals = Float64Array.from([999, 1002, 1010, 1006, 1000.5, 1004]);
    // 3 ms sent 999 → 1002: overlaps. 2.5 sent 1007.5 → 1010: after. 6 sent 1000 → 1006: overlaps.
    // 2.2 sent 998.3 → 1000.5: overlaps. 1.9: not slow (under the bound) though in the pause.
    expect(slowStepsInGc(latencies, arrivals, [{ at: 1000, ms: 5 }], 2)).toEqual({ slow: 4, inGc: 3 });
    expect(slowStepsInGc(latencies, arrivals, [], 2)).toEqual({ slow: 4, inGc: 0 });
    // Two pauses do not count a step twice.
    expect(
      slowStepsInGc(
        latencies,
        arrivals,
        [
          { at: 1001, ms: 1 },
          { at: 1000, ms: 5 },
        ],
        2,
      ).inGc,
    ).toBe(3);
  });
});
