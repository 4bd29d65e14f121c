/**
 * A tenant's session as the HTTP routes read it (`GET /v1/sessions/:id`, `POST /v1/rank`): this replica's copy, or,
 * with Redis, the durable one when another replica holds it or none does. Behind a balancer the sessions of one
 * group of rollouts end on different replicas, and a rank of them by id must find each wherever it ended.
 */
import type { DurableSessions } from './durable-sessions.js';
import type { SessionRegistry } from './session-registry.js';
import type { Session } from './session.js';

export interface FoundSession {
  session: Session;
  /** Read from the journal: another replica holds it open, or none does (it was not ended and no client holds it). */
  elsewhere?: 'open' | 'detached';
}

/**
 * Undefined when the tenant has no such session (another tenant's is as unknown: the journal's tenant is checked
 * before any step is read). Throws the journal's error only when there is no local copy to answer with.
 */
export async function lookupSession(registry: SessionRegistry, durable: DurableSessions | undefined, tenant: string, id: string): Promise<FoundSession | undefined> {
  const local = registry.find(tenant, id);
  // A copy a connection here holds, or one ended here, is the answer; else it may have moved to another replica.
  if (durable === undefined || (local !== undefined && (local.ended || local.connection !== undefined))) return local && { session: local };
  try {
    const view = await durable.view(tenant, id);
    // This replica's copy stays the answer while this replica holds the lease.
    if (view && !(local && view.owner === durable.journal.owner)) return { session: view.session, elsewhere: view.owner !== undefined ? 'open' : 'detached' };
  } catch (error) {
    if (local === undefined) throw error;
  }
  return local && { session: local };
}
