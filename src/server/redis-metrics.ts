/** Prometheus metrics of the Redis connection: command latency and errors by operation, connection losses, up/down. */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { RedisObserver } from '../store/redis/link.js';

export class RedisMetrics implements RedisObserver {
  private readonly seconds = new Histogram({
    name: 'steplens_redis_command_seconds',
    help: 'Round trip of one Redis command or script, by operation (session_append, grow, get_pta, ...).',
    labelNames: ['op'],
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1, 1],
    registers: [],
  });
  private readonly errors = new Counter({
    name: 'steplens_redis_errors_total',
    help: 'Redis commands that failed (unreachable, timed out, refused), by operation.',
    labelNames: ['op'],
    registers: [],
  });
  private readonly lost = new Counter({ name: 'steplens_redis_connection_lost_total', help: 'Times the connection to Redis was lost (each followed by reconnects with backoff).', registers: [] });

  /** Per-operation children, made once: labelling on every observation costs more than the observation. */
  private readonly byOp = new Map<string, { observe(seconds: number): void }>();

  command(op: string, seconds: number, ok: boolean): void {
    let child = this.byOp.get(op);
    if (child === undefined) {
      child = this.seconds.labels({ op });
      this.byOp.set(op, child);
    }
    child.observe(seconds);
    if (!ok) this.errors.inc({ op });
  }

  connection(event: 'ready' | 'lost'): void {
    if (event === 'lost') this.lost.inc();
  }

  /** Adds these metrics, and `steplens_redis_up` read from `up` at each scrape, to `registry`. */
  register(registry: Registry, up: () => boolean): void {
    for (const m of [this.seconds, this.errors, this.lost]) registry.registerMetric(m);
    new Gauge({
      name: 'steplens_redis_up',
      help: '1 while the connection to Redis is up, else 0.',
      registers: [registry],
      collect() {
        this.set(up() ? 1 : 0);
      },
    });
  }
}
