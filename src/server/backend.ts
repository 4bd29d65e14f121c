/**
 * Where references and sessions live: the embedded file store (sessions in
 * memory), or Redis shared by every replica (references, and sessions that
 * survive their replica). Chosen by `AppOptions.redis`.
 */
import type { Logger } from 'pino';
import { ReferenceStore } from '../store/reference-store.js';
import type { RedisLink, RedisObserver } from '../store/redis/link.js';
import type { SessionJournal } from '../store/session-journal.js';
import type { ReferenceStorePort } from '../store/store-port.js';
import type { AppOptions, ResolvedOptions } from './options.js';
import { ptaLimits } from './server-limits.js';

export interface Backend {
  store: ReferenceStorePort;
  /** Redis only: the session journal, the lease period, the connection. */
  journal?: SessionJournal;
  leaseMs?: number;
  link?: RedisLink;
  /** Lets go of what `openBackend` opened (a store passed in `options.store` is only flushed). */
  close(): Promise<void>;
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
  // Loaded only here: ioredis and the Redis store cost ~90 ms of every start of a server that has no Redis.
  const { openRedisBackend } = await import('./redis-backend.js');
  return openRedisBackend(options.redis, options.seedDirs ?? [], resolved, log, observer);
}
