/**
 * The Redis backend (references, and sessions that survive their replica), imported by backend.ts only when
 * `AppOptions.redis` is set, so that a server without Redis never loads ioredis. What it returns is checked as a
 * `Backend` where backend.ts returns it (no import back: it would close a circle).
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import { RedisLink, type RedisObserver } from '../store/redis/link.js';
import { RedisReferenceStore } from '../store/redis/reference-store.js';
import { RedisSessionJournal } from '../store/redis/session-journal.js';
import type { RedisSettings, ResolvedOptions } from './options.js';
import { ptaLimits } from './server-limits.js';

/**
 * Each tenant may keep `journalBytesPerTenant` of sessions (records, finals, steps) in Redis: when the tenants' budgets together reach Redis'
 * `maxmemory`, one tenant can still fill it and stop every tenant (docs/scale-out.md, sizing). Said once at start.
 */
async function warnIfRedisTooSmall(link: RedisLink, resolved: ResolvedOptions, log: Logger): Promise<void> {
  const budget = resolved.limits.journalBytesPerTenant;
  if (budget === 0 || !link.available()) return;
  try {
    const info = await link.run('memory_info', (r) => r.info('memory'));
    const max = Number(/^maxmemory:(\d+)/m.exec(info)?.[1] ?? 0);
    if (max > 0 && budget * resolved.tenants >= max)
      log.warn(
        { maxmemory: max, journalBytesPerTenant: budget, tenants: resolved.tenants },
        "Redis' maxmemory is less than journalBytesPerTenant times the tenants: one tenant's sessions can fill it for all (raise maxmemory or lower the budget: docs/scale-out.md)",
      );
  } catch {
    // Not said, then: readiness reports a Redis that does not answer.
  }
}

/** A replica id unique enough to tell leases apart: host, pid and a random part. */
function replicaId(): string {
  return `${os.hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

export async function openRedisBackend(r: RedisSettings, seedDirs: string[], resolved: ResolvedOptions, log: Logger, observer?: RedisObserver) {
  const warn = (message: string): void => log.warn(message);
  const link = new RedisLink({
    url: r.url,
    warn,
    ...(r.prefix !== undefined ? { prefix: r.prefix } : {}),
    ...(r.commandTimeoutMs !== undefined ? { commandTimeoutMs: r.commandTimeoutMs } : {}),
    ...(observer ? { observer } : {}),
  });
  // A session's keys outlive its last message by the idle timeout (then its owner ends it) and the resume window.
  const ttlMs = resolved.idleTimeoutMs + resolved.resumeWindowMs;
  const store = await RedisReferenceStore.open({ link, seedDirs, keepVersionsMs: ttlMs, limits: ptaLimits(resolved.limits), warn });
  if (!link.available()) log.error({ redis: link.endpoint }, 'Redis is unreachable: not ready until it answers (retrying with backoff)');
  const leaseMs = r.leaseMs ?? 15_000;
  const journal = new RedisSessionJournal({
    link,
    store,
    owner: r.replicaId ?? replicaId(),
    leaseMs,
    ttlMs,
    keepEndedMs: resolved.resumeWindowMs,
    budget: resolved.limits.journalBytesPerTenant,
  });
  log.info({ redis: link.endpoint, prefix: link.prefix, replica: journal.owner }, 'references and sessions in Redis');
  await warnIfRedisTooSmall(link, resolved, log);
  return {
    store,
    journal,
    leaseMs,
    link,
    close: async () => {
      await store.close();
      await link.close();
    },
  };
}
