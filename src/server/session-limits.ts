/**
 * Whether one more session fits: the connection's bound, the tenant's quota and the server's own total. Counts are
 * asked lazily: a tenant's count walks the sessions being started.
 */
import type { MessageError } from '../protocol/parse.js';
import type { ServerLimits } from './server-limits.js';

export interface OpenCounts {
  onConnection(): number;
  ofTenant(): number;
  all(): number;
}

/** Why a new session `id` does not fit (`full`: only the server's own limit is reached), or undefined. */
export function sessionLimit(limits: Pick<ServerLimits, 'sessionsPerConnection' | 'sessionsPerTenant' | 'totalSessions'>, open: OpenCounts, id: string): MessageError | 'full' | undefined {
  if (open.onConnection() >= limits.sessionsPerConnection) {
    return { code: 'overloaded', message: `this connection already holds ${limits.sessionsPerConnection} sessions`, session: id };
  }
  // A quota as large as the server (one tenant) is the server's own limit: `overloaded`, after reclaiming.
  if (limits.sessionsPerTenant < limits.totalSessions && open.ofTenant() >= limits.sessionsPerTenant) {
    return { code: 'quota_exceeded', message: `this tenant already holds ${limits.sessionsPerTenant} open sessions (detached ones included): end some first`, session: id };
  }
  return open.all() >= limits.totalSessions ? 'full' : undefined;
}
