/** Prometheus metrics of one app, on its own registry (so many apps can coexist in one process). */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ReferenceStorePort } from '../store/store-port.js';

export interface AppMetrics {
  registry: Registry;
  stepsScored: Counter<string>;
  stepLatency: Histogram<string>;
  activeSessions: Gauge<string>;
  activeConnections: Gauge<string>;
  endedSessions: Gauge<string>;
  endedSessionBytes: Gauge<string>;
  signalsFired: Counter<'kind' | 'severity'>;
  refusals: Counter<'code'>;
  /** Sessions rebuilt from the Redis journal (taken over from another replica, or after a failed write). */
  sessionsRebuilt: Counter<string>;
}

/** Creates the metrics; PTA cache metrics read the store on each scrape. */
export function createMetrics(store: Pick<ReferenceStorePort, 'cacheStats'>, options: { defaultMetrics?: boolean } = {}): AppMetrics {
  const registry = new Registry();
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry, prefix: 'steplens_' });
  const registers = [registry];
  const cacheCounter = (name: string, help: string, pick: 'hits' | 'misses'): void => {
    new Counter({
      name,
      help,
      registers,
      collect() {
        this.reset();
        this.inc(store.cacheStats()[pick]);
      },
    });
  };
  cacheCounter('steplens_pta_cache_hits_total', 'PTA cache hits.', 'hits');
  cacheCounter('steplens_pta_cache_misses_total', 'PTA cache misses (loads from disk).', 'misses');
  new Gauge({
    name: 'steplens_pta_cache_entries',
    help: 'PTAs held in the cache.',
    registers,
    collect() {
      this.set(store.cacheStats().entries);
    },
  });
  new Gauge({
    name: 'steplens_pta_cache_bytes',
    help: 'JSON bytes of the PTAs held in the cache.',
    registers,
    collect() {
      this.set(store.cacheStats().bytes);
    },
  });
  return {
    registry,
    stepsScored: new Counter({ name: 'steplens_steps_scored_total', help: 'Steps scored over WebSocket sessions.', registers }),
    stepLatency: new Histogram({
      name: 'steplens_step_latency_seconds',
      help: 'Time to score one step (parse, label, score).',
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1],
      registers,
    }),
    activeSessions: new Gauge({ name: 'steplens_active_sessions', help: 'Sessions open (started, not yet ended; detached ones awaiting resume included).', registers }),
    activeConnections: new Gauge({ name: 'steplens_active_connections', help: 'Open WebSocket connections.', registers }),
    endedSessions: new Gauge({ name: 'steplens_ended_sessions', help: 'Ended sessions kept for resume and GET within the resume window (bounded by count and bytes).', registers }),
    endedSessionBytes: new Gauge({ name: 'steplens_ended_session_bytes', help: 'Approximate bytes the kept ended sessions hold (frame logs and finals).', registers }),
    signalsFired: new Counter({ name: 'steplens_signals_fired_total', help: 'Early-stop signals fired.', labelNames: ['kind', 'severity'], registers }),
    refusals: new Counter({ name: 'steplens_refusals_total', help: 'Refused messages and requests, by error code.', labelNames: ['code'], registers }),
    sessionsRebuilt: new Counter({ name: 'steplens_sessions_rebuilt_total', help: 'Sessions rebuilt from the Redis journal (resumed from another replica, or after a failed write).', registers }),
  };
}
