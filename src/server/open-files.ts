/**
 * The default bound on all connections, from the process's open-files limit: kept apart from
 * connection-caps.ts so server-limits.ts can read it without importing the HTTP error helpers (an import circle).
 */
import { readFileSync } from 'node:fs';

/** File descriptors kept free for everything but client connections (PTA files, workers, Redis, logs). */
const FD_RESERVE = 256;

/** The soft limit of open files of this process (Linux /proc), if known. */
export function openFilesLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line?.[1] !== undefined && line[1] !== 'unlimited' ? Number(line[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** The default bound on all connections: the fd limit less a reserve (at least 64), else 10,000. */
export function defaultMaxConnections(limit = openFilesLimit()): number {
  return limit === undefined ? 10_000 : Math.max(64, limit - FD_RESERVE);
}

/** The default streams per tenant on a shared server: a quarter of all connections, at least 16 (1,024 with no bound on all). */
export function defaultStreamsPerTenant(maxConnections: number): number {
  return maxConnections > 0 ? Math.max(16, Math.floor(maxConnections / 4)) : 1024;
}
