/**
 * A target's GC over a bench window (bench/server-process.ts): perf_hooks `gc` entries by kind, and the heap's
 * sizes at the window's two ends (issue 24 item 2 asks how GC was measured, heap sizes included).
 */
import { constants as perf, PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

/** Old space used and the young generation's size (both semi-spaces), in MB, at one moment. */
export interface HeapSizes {
  oldMb: number;
  youngMb: number;
}

/** GC pauses (perf_hooks `gc` entries: the main thread's stop-the-world time) over a window, in ms. */
export interface GcPauses {
  /** Young-generation collections (scavenges): count, total, p99 and longest pause. */
  minor: { n: number; total: number; p99: number; max: number };
  /** Mark-compacts (perf_hooks' major kind): count, total, longest pause. */
  major: { n: number; total: number; max: number };
  /** Incremental marking and weak-callback entries: not collections of their own (they were counted as full GCs before gc22). */
  other: { n: number; total: number; max: number };
  /** The heap at the window's start (the previous take) and at its end. */
  heap: { start: HeapSizes; end: HeapSizes };
  /** The window's scavenges and mark-compacts in time (tail30: which slow steps waited behind one). */
  spans: GcSpan[];
}

/** A `gc` entry's kind (perf_hooks constants) and pause; `at`: its start in epoch ms (to lay it beside a driver's steps). */
export interface GcEntry {
  kind: number;
  duration: number;
  at?: number;
}

/** A stop-the-world pause of the window (a scavenge or a mark-compact): start in epoch ms, length in ms. */
export interface GcSpan {
  at: number;
  ms: number;
}

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

/** The entries of a window by kind: scavenges, mark-compacts, and the rest (incremental steps, weak callbacks). */
export function summarizeGc(entries: readonly GcEntry[]): Omit<GcPauses, 'heap' | 'spans'> {
  const of = (kind: number): number[] => entries.filter((e) => e.kind === kind).map((e) => e.duration);
  const minor = of(perf.NODE_PERFORMANCE_GC_MINOR).sort((a, b) => a - b);
  const major = of(perf.NODE_PERFORMANCE_GC_MAJOR);
  const other = entries.filter((e) => e.kind !== perf.NODE_PERFORMANCE_GC_MINOR && e.kind !== perf.NODE_PERFORMANCE_GC_MAJOR).map((e) => e.duration);
  return {
    minor: { n: minor.length, total: sum(minor), p99: minor[Math.min(minor.length - 1, Math.floor(minor.length * 0.99))] ?? 0, max: minor.at(-1) ?? 0 },
    major: { n: major.length, total: sum(major), max: Math.max(0, ...major) },
    other: { n: other.length, total: sum(other), max: Math.max(0, ...other) },
  };
}

/** Old space used and new space's size now (MB). */
export function heapSizes(): HeapSizes {
  const spaces = v8.getHeapSpaceStatistics();
  const mb = (name: string, field: 'space_used_size' | 'space_size'): number => (spaces.find((s) => s.space_name === name)?.[field] ?? 0) / 2 ** 20;
  return { oldMb: mb('old_space', 'space_used_size'), youngMb: mb('new_space', 'space_size') };
}

/** Collects `gc` performance entries until {@link GcWatch.take} is called (then starts over). */
export class GcWatch {
  private entries: GcEntry[] = [];
  private start: HeapSizes = heapSizes();
  constructor() {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind ?? perf.NODE_PERFORMANCE_GC_MAJOR;
        this.entries.push({ kind, duration: e.duration, at: performance.timeOrigin + e.startTime });
      }
    }).observe({ entryTypes: ['gc'] });
  }
  take(): GcPauses {
    const end = heapSizes();
    const stw = this.entries.filter((e) => e.kind === perf.NODE_PERFORMANCE_GC_MINOR || e.kind === perf.NODE_PERFORMANCE_GC_MAJOR);
    const spans = stw.map((e) => ({ at: e.at ?? Number.NaN, ms: e.duration }));
    const pauses = { ...summarizeGc(this.entries), heap: { start: this.start, end }, spans };
    this.entries = [];
    this.start = end;
    return pauses;
  }
}

/** The printed account of a window's GC (ws-load's paced rows). */
export function gcLine(gc: GcPauses): string {
  const f = (x: number, d: number): string => x.toFixed(d);
  const { start, end } = gc.heap;
  return (
    `server GC (perf_hooks): ${gc.minor.n} scavenges, ${f(gc.minor.total, 0)} ms in all, p99 ${f(gc.minor.p99, 2)} max ${f(gc.minor.max, 2)} ms; ` +
    `${gc.major.n} mark-compacts, ${f(gc.major.total, 0)} ms, max ${f(gc.major.max, 1)} ms; ${gc.other.n} incremental marking / weak callback entries, ${f(gc.other.total, 0)} ms; ` +
    `old space ${f(start.oldMb, 1)} → ${f(end.oldMb, 1)} MB used over the window, young generation ${f(end.youngMb, 0)} MB (both semi-spaces)`
  );
}

/**
 * Of the steps slower than `boundMs`, how many were in flight (sent, `arrival - latency`, to answered, `arrival`, in
 * epoch ms) while the target was in one of `spans` (tail30): the slow steps a GC pause can account for; the rest
 * waited on something else (the machine's scheduler, timers, the server's own work).
 */
export function slowStepsInGc(latencies: Float64Array, arrivals: Float64Array, spans: readonly GcSpan[], boundMs: number): { slow: number; inGc: number } {
  const sorted = [...spans].sort((x, y) => x.at - y.at);
  let slow = 0;
  let inGc = 0;
  latencies.forEach((lat, i) => {
    if (!(lat > boundMs)) return;
    slow++;
    const end = arrivals[i]!;
    const sent = end - lat;
    if (sorted.some((g) => g.at < end && g.at + g.ms > sent)) inGc++;
  });
  return { slow, inGc };
}
