/** The scale-out bench's model (bench/scale-out-model.ts): which side bounds N replicas, and the per-session / per-step split. */
import { describe, expect, it } from 'vitest';
import { predict, splitLifecycle } from '../../bench/scale-out-model.js';

describe('scale-out model', () => {
  const costs = { replicaUs: 125, redisUs: 25, bytesIn: 1900 };

  it('is bound by the replicas until N × replica capacity passes what one Redis core takes', () => {
    const four = predict(4, costs, 1, 125e6);
    expect(four).toMatchObject({ bound: 'replicas', steps: 32_000, redisCeiling: 40_000 });
    expect(four.redisBusy).toBeCloseTo(0.8, 10);
    const eight = predict(8, costs, 1, 125e6);
    expect(eight).toMatchObject({ bound: 'redis', steps: 40_000, replicaCapacity: 64_000 });
    expect(eight.redisBusy).toBeCloseTo(1, 10);
    // A share of Redis's core lowers its ceiling in proportion.
    expect(predict(8, costs, 0.8, 125e6).steps).toBeCloseTo(32_000, 6);
  });

  it('is bound by the network when the link carries fewer steps than Redis could take', () => {
    const slow = predict(32, costs, 1, 12.5e6);
    expect(slow.bound).toBe('network');
    expect(slow.steps).toBeCloseTo(12.5e6 / 1900, 6);
  });

  it('splits a cost into per-session and per-step parts from two session lengths', () => {
    const perSession = 700;
    const perStep = 120;
    const run = (sessions: number, length: number) => ({ sessions, steps: sessions * length, cost: sessions * perSession + sessions * length * perStep });
    const split = splitLifecycle(run(140, 79), run(190, 8));
    expect(split.perSession).toBeCloseTo(perSession, 6);
    expect(split.perStep).toBeCloseTo(perStep, 6);
  });
});
