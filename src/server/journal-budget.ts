/**
 * A tenant's journal budget (`journalBytesPerTenant`, with Redis): the bytes its sessions keep in Redis (their
 * records, finals and steps), every replica together, so that one tenant cannot fill the Redis every tenant
 * needs. The scripts hold the bound (store/redis/journal-bytes.ts): a start past it is refused by the open
 * script itself (nothing scored yet, nothing written). But a step they refuse was scored already, and its
 * session must then be rebuilt from the journal. So a step is checked before it is scored, against what this
 * replica last heard (no round trip while the tenant is well within its budget), and near the bound against
 * Redis itself: a step refused here costs one small read, and its session keeps exactly what it had.
 */
import { SteplensError } from '../errors.js';
import type { MessageError } from '../protocol/parse.js';
import type { SessionJournal } from '../store/session-journal.js';

const HELD = (tenant: string, held: number): string => `tenant ${tenant}'s sessions keep ${held} bytes in Redis (records, finals and steps)`;
const WHEN = 'once ended sessions left (an ended session counts until its resume window is over) or idle ones expired';

/** The refusal of a step of `bytes` that would take `tenant`'s `held` bytes past the budget. */
export function overBudget(tenant: string, held: number, bytes: number, budget: number, session: string, seq: number): MessageError {
  return {
    code: 'quota_exceeded',
    message:
      `seq ${seq} not accepted: ${HELD(tenant, held)}, and this step's ${bytes} bytes would take them past journalBytesPerTenant (${budget} bytes). ` +
      `The steps accepted before are kept: send it again ${WHEN}`,
    session,
    seq,
  };
}

/** The refusal of a start whose record would take `tenant`'s `held` bytes past the budget (nothing was opened). */
export function startOverBudget(tenant: string, held: number, budget: number, session: string): MessageError {
  return {
    code: 'quota_exceeded',
    message: `session ${session} not started: ${HELD(tenant, held)}, and its record would take them past journalBytesPerTenant (${budget} bytes). Start it again ${WHEN}`,
    session,
  };
}

/** Undefined when the step fits; its refusal when not; a promise of either while Redis is asked. Never rejects. */
export function checkBudget(journal: SessionJournal, tenant: string, session: string, seq: number, bytes: number): MessageError | undefined | Promise<MessageError | undefined> {
  const budget = journal.budget;
  if (budget === 0) return undefined;
  const held = journal.tenantBytes(tenant);
  if (held !== undefined && held + bytes <= budget) return undefined;
  return journal.readTenantBytes(tenant).then(
    (now) => (now + bytes <= budget ? undefined : overBudget(tenant, now, bytes, budget, session, seq)),
    (error: unknown) => {
      const why = error instanceof SteplensError ? error.message : `shared store error: ${(error as Error).message}`;
      return { code: 'unavailable', message: `seq ${seq} not accepted: ${why}`, session, seq };
    },
  );
}
