/**
 * Log lines a tenant's own events write (`logLinesPerTenant`, T38): a session started, ended, resumed or freed, a
 * stream opened or closed, a pair pushed out. A tenant sets their pace, so without a bound one agent token
 * starting and ending sessions on one stream wrote 1.6 MB of log a second (5.7 GB an hour), every line naming
 * it. Each tenant has a bucket of `perMinute` lines refilled continuously: past it its lines are left out and
 * counted; one warning says so when it begins, and the tenant's next line written carries how many were left out.
 * Warnings a tenant's clients cause at their pace (a stream broken at the WebSocket level, a client not reading:
 * T45) take from the same bucket ({@link tenantWarn}), and so do debug lines of each frame refused ({@link tenantDebug}:
 * one stream's refused frames wrote 12 MB of debug log a second, T81).
 */
import type { Logger } from 'pino';

interface Bucket {
  /** Lines it may still write now (refilled at perMinute a minute, up to perMinute). */
  tokens: number;
  at: number;
  /** Lines left out since its last line written. */
  left: number;
  /** Warned that its lines are left out, until its bucket is full again. */
  warned: boolean;
}

/** One bucket per tenant of one logger. */
class TenantLines {
  private readonly buckets = new Map<string, Bucket>();

  constructor(readonly perMinute: number) {}

  /** Whether this line of `tenant` is written, the lines left out (before it when written, else with it), whether to warn. */
  take(tenant: string, now: number): { write: boolean; left: number; warn: boolean } {
    let b = this.buckets.get(tenant);
    if (b === undefined) {
      // Tenants are the token file's (a few): a bucket each, never removed.
      b = { tokens: this.perMinute, at: now, left: 0, warned: false };
      this.buckets.set(tenant, b);
    }
    b.tokens = Math.min(this.perMinute, b.tokens + ((now - b.at) * this.perMinute) / 60_000);
    b.at = now;
    // Once the bucket is full again the tenant has slowed down: a new run of lines left out is warned of again.
    if (b.tokens >= this.perMinute) b.warned = false;
    if (b.tokens < 1) {
      const warn = !b.warned;
      b.warned = true;
      return { write: false, left: ++b.left, warn };
    }
    b.tokens--;
    const left = b.left;
    b.left = 0;
    return { write: true, left, warn: false };
  }
}

const limits = new WeakMap<Logger, TenantLines>();

/** Bounds the tenant lines `log` writes through {@link tenantInfo} to `perMinute` per tenant (0: no bound). */
export function limitTenantLines(log: Logger, perMinute: number): void {
  if (perMinute > 0) limits.set(log, new TenantLines(perMinute));
  else limits.delete(log);
}

/** `log.info(fields, msg)` of an event of `tenant`, within its share of lines (unbounded on a logger not limited). */
export function tenantInfo(log: Logger, tenant: string, fields: Record<string, unknown>, msg: string, now = Date.now()): void {
  tenantLine(log, 'info', tenant, fields, msg, now);
}

/** `log.warn(fields, msg)` of something a client of `tenant` did, within the same share as its {@link tenantInfo} lines. */
export function tenantWarn(log: Logger, tenant: string, fields: Record<string, unknown>, msg: string, now = Date.now()): void {
  tenantLine(log, 'warn', tenant, fields, msg, now);
}

/** `log.debug(fields, msg)` of one frame of `tenant` (a refusal), within the same share: nothing when debug is off. */
export function tenantDebug(log: Logger, tenant: string, fields: Record<string, unknown>, msg: string, now = Date.now()): void {
  tenantLine(log, 'debug', tenant, fields, msg, now);
}

function tenantLine(log: Logger, level: 'debug' | 'info' | 'warn', tenant: string, fields: Record<string, unknown>, msg: string, now: number): void {
  if (!log.isLevelEnabled(level)) return;
  const bucket = limits.get(log);
  if (bucket === undefined) return void log[level]({ ...fields, tenant }, msg);
  const { write, left, warn } = bucket.take(tenant, now);
  if (write) return void log[level](left > 0 ? { ...fields, tenant, linesLeftOut: left } : { ...fields, tenant }, msg);
  // The first line left out of a run says so, once (until the tenant's bucket has filled up again).
  if (warn) log.warn({ tenant, perMinute: bucket.perMinute }, "tenant's log lines over logLinesPerTenant a minute: left out (counted on its next line)");
}
