/**
 * The throughput model of the scale-out bench (issue 24): N replicas, each on
 * its own machine, share one single-threaded Redis. Each side can do at most
 * one core's worth of CPU per second:
 *
 *   steps/s(N) = min(N × 1e6 / replica µs per step,
 *                    efficiency × 1e6 / Redis µs per step,
 *                    link bytes/s / bytes into Redis per step)
 *
 * The per-step costs are CPU time (not wall time) measured with the replica
 * saturated on a core of its own, so they include every cost that grows with
 * the load: the session lifecycle amortised over the trajectory, the batched
 * journal writes, lease renewals. Also the split of a cost into per-session
 * and per-step parts from two session lengths.
 */

/** The per-step inputs of the model. */
export interface StepCosts {
  /** CPU µs per step of one replica (summed over replicas when several share the load). */
  replicaUs: number;
  /** CPU µs per step of redis-server (all its threads). */
  redisUs: number;
  /** Bytes Redis reads from the replicas per step (its network input). */
  bytesIn: number;
}

export type Bound = 'replicas' | 'redis' | 'network';

export interface Prediction {
  replicas: number;
  /** What the replicas alone could do (N cores). */
  replicaCapacity: number;
  /** What Redis can take at `efficiency` of one core. */
  redisCeiling: number;
  networkCeiling: number;
  steps: number;
  bound: Bound;
  /** How busy Redis's core is at `steps` (0-1). */
  redisBusy: number;
}

/** The model for `n` replicas on `n` machines; `linkBytesPerS` the Redis machine's network input (1 Gb/s = 125e6). */
export function predict(n: number, c: StepCosts, efficiency: number, linkBytesPerS: number): Prediction {
  const replicaCapacity = (n * 1e6) / c.replicaUs;
  const redisCeiling = (efficiency * 1e6) / c.redisUs;
  const networkCeiling = linkBytesPerS / c.bytesIn;
  const steps = Math.min(replicaCapacity, redisCeiling, networkCeiling);
  const bound: Bound = steps === replicaCapacity ? 'replicas' : steps === redisCeiling ? 'redis' : 'network';
  return { replicas: n, replicaCapacity, redisCeiling, networkCeiling, steps, bound, redisBusy: (steps * c.redisUs) / 1e6 };
}

/** Totals of one kind of run: sessions and steps done, and any cost summed over them. */
export interface Totals {
  sessions: number;
  steps: number;
  cost: number;
}

/**
 * Solves cost = perSession × sessions + perStep × steps from two runs whose
 * sessions differ in length (same trajectory, a prefix of it in one run).
 */
export function splitLifecycle(long: Totals, short: Totals): { perSession: number; perStep: number } {
  const det = long.steps * short.sessions - short.steps * long.sessions;
  const perStep = (long.cost * short.sessions - short.cost * long.sessions) / det;
  const perSession = (long.cost - perStep * long.steps) / long.sessions;
  return { perSession, perStep };
}
