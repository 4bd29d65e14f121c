import { describe, expect, it } from 'vitest';
import { Histogram, Registry } from 'prom-client';
import { withFastObserve } from '../../src/server/fast-observe.js';
import { createMetrics } from '../../src/server/metrics.js';

/** A histogram's `observe` as a value (compared, never called). */
const observeOf = (h: Histogram<string>): unknown => (h as unknown as { observe: unknown }).observe;

const BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1];

/** Two registries with one histogram each: prom-client's own `observe`, and the fast one. */
function pair(labelNames: string[] = []): { slow: Histogram<string>; fast: Histogram<string>; text: () => Promise<[string, string]> } {
  const a = new Registry();
  const b = new Registry();
  const slow = new Histogram({ name: 'h_seconds', help: 'h', buckets: BUCKETS, labelNames, registers: [a] });
  const fast = withFastObserve(new Histogram({ name: 'h_seconds', help: 'h', buckets: BUCKETS, labelNames, registers: [b] }));
  return { slow, fast, text: async () => [await a.metrics(), await b.metrics()] };
}

/** Seeded values over every bucket, on their bounds and past the last. */
function values(): number[] {
  let x = 12345;
  const out: number[] = [];
  for (let i = 0; i < 5000; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out.push((x / 2 ** 32) ** 4 * 0.2);
  }
  return [...out, ...BUCKETS, 0, 0.2, 1e-12, ...BUCKETS.map((b) => b * (1 + Number.EPSILON))];
}

describe('withFastObserve (life23)', () => {
  it('replaces observe on an unlabelled histogram, and the scrape reads the same text as with prom-client’s', async () => {
    const { slow, fast, text } = pair();
    expect(observeOf(fast)).not.toBe(observeOf(slow));
    for (const v of values()) {
      slow.observe(v);
      fast.observe(v);
    }
    const [a, b] = await text();
    expect(b).toBe(a);
    expect(a).toContain('h_seconds_count 5023');
  });

  it('after a reset, and for bad values, answers as prom-client does', async () => {
    const { slow, fast, text } = pair();
    for (const h of [slow, fast]) {
      h.observe(0.003);
      h.reset();
      h.observe(0.0002);
      expect(() => h.observe(Number.NaN)).toThrow(/not a valid number/);
      expect(() => h.observe(Infinity)).toThrow(/not a valid number/);
    }
    const [a, b] = await text();
    expect(b).toBe(a);
  });

  it('leaves a labelled histogram to prom-client', async () => {
    const { slow, fast, text } = pair(['kind']);
    for (const h of [slow, fast]) {
      h.observe({ kind: 'x' }, 0.002);
      h.observe({ kind: 'y' }, 0.02);
    }
    const [a, b] = await text();
    expect(b).toBe(a);
  });

  it('is what the server’s step latency uses', async () => {
    const metrics = createMetrics({ cacheStats: () => ({ hits: 0, misses: 0, entries: 0, bytes: 0 }) });
    const { slow } = pair();
    expect(observeOf(metrics.stepLatency)).not.toBe(observeOf(slow));
    expect((observeOf(metrics.stepLatency) as { name: string }).name).toBe('fast');
    for (const v of values()) metrics.stepLatency.observe(v);
    const text = await metrics.registry.metrics();
    expect(text).toContain('steplens_step_latency_seconds_count 5023');
  });
});
