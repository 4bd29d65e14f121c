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
import { gcLine, GcWatch, summarizeGc } from '../../bench/gc-watch.js';

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
    const line = gcLine(second);
    expect(line).toContain(`${second.major.n} mark-compacts`);
    expect(line).toMatch(/old space [\d.]+ → [\d.]+ MB used over the window, young generation \d+ MB/);
  });
});
