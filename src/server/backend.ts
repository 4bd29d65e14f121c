/**
 * Where references and sessions live: the embedded file store (sessions in
 * memory), or Redis shared by every replica (references, and sessions that
 * survive their replica). Chosen by `AppOptions.redis`.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import { ReferenceStore } from '../store/reference-store.js';
import { RedisLink, type RedisObserver } from '../store/redis/link.js';
import { RedisReferenceStore } from '../store/redis/reference-store.js';
import { RedisSessionJournal } from '../store/redis/session-journal.js';
import type { SessionJournal } from '../store/session-journal.js';
import type { ReferenceStorePort } from '../store/store-port.js';
import { ptaLimits, type AppOptions, type ResolvedOptions } from './options.js';

export interface Backend {
  store: ReferenceStorePort;
  /** Redis only: the session journal, the lease period, the connection. */
  journal?: SessionJournal;
  leaseMs?: number;
  link?: RedisLink;
  /** Lets go of what `openBackend` opened (a store passed in `options.store` is only flushed). */
  close(): Promise<void>;
}

/** A replica id unique enough to tell leases apart: host, pid and a random part. */
export function replicaId(): string {
  return `${os.hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

export async function openBackend(options: AppOptions, resolved: ResolvedOptions, log: Logger, observer?: RedisObserver): Promise<Backend> {
  const warn = (message: string): void => log.warn(message);
  if (options.store) {
    const store = options.store;
    return { store, close: () => store.flush() };
  }
  if (!options.redis) {
    const store = await ReferenceStore.open({ dataDir: options.dataDir ?? './data', seedDirs: options.seedDirs ?? [], limits: ptaLimits(resolved.limits), warn });
    return { store, close: () => store.close() };
  }
  const r = options.redis;
  const link = new RedisLink({
    url: r.url,
    warn,
    ...(r.prefix !== undefined ? { prefix: r.prefix } : {}),
    ...(r.commandTimeoutMs !== undefined ? { commandTimeoutMs: r.commandTimeoutMs } : {}),
    ...(observer ? { observer } : {}),
  });
  // A session's keys outlive its last message by the idle timeout (then its owner ends it) and the resume window.
  const ttlMs = resolved.idleTimeoutMs + resolved.resumeWindowMs;
  const store = await RedisReferenceStore.open({ link, seedDirs: options.seedDirs ?? [], keepVersionsMs: ttlMs, limits: ptaLimits(resolved.limits), warn });
  if (!link.available()) log.error({ redis: link.endpoint }, 'Redis is unreachable: not ready until it answers (retrying with backoff)');
  const leaseMs = r.leaseMs ?? 15_000;
  const journal = new RedisSessionJournal({ link, store, owner: r.replicaId ?? replicaId(), leaseMs, ttlMs, keepEndedMs: resolved.resumeWindowMs });
  log.info({ redis: link.endpoint, prefix: link.prefix, replica: journal.owner }, 'references and sessions in Redis');
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
