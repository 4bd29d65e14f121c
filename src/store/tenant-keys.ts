/**
 * Store keys of tenants' own PTAs (the server's `tenant` reference scope): kept in the same store as the shared
 * ones, one per tenant and task, under a key no task id can be. A task id is at most {@link TASK_ID_MAX_LENGTH}
 * characters (and may hold any character, NUL included), so the key is made longer than that: the tenant, NUL,
 * the task, then a fixed tail of NUL and 256 `~`. Tenant names never hold a NUL, so the first NUL ends the tenant
 * and the key reads back to exactly one (tenant, task): no tenant's name spells another's key, and no two tasks
 * of one tenant share one. The file store gives such long keys hashed file names (file-names.ts) and reads the
 * key back from the file; Redis takes them as they are.
 */
import { TASK_ID_MAX_LENGTH } from '../protocol/client-messages.js';

const TAIL = `\u0000${'~'.repeat(TASK_ID_MAX_LENGTH)}`;

/** The store key of `tenant`'s own PTA of `task`. */
export function ownTaskKey(tenant: string, task: string): string {
  // Token grants hold tenant names to TENANT_NAME (server/principal.ts); a NUL would make keys ambiguous.
  if (tenant === '' || tenant.includes('\u0000')) throw new Error(`tenant name ${JSON.stringify(tenant)} cannot name a store key`);
  return `${tenant}\u0000${task}${TAIL}`;
}

/** The tenant and task of an own-PTA key; undefined for any other key (a shared task's id). */
export function ownerOfKey(key: string): { tenant: string; task: string } | undefined {
  if (key.length <= TASK_ID_MAX_LENGTH || !key.endsWith(TAIL)) return undefined;
  const body = key.slice(0, -TAIL.length);
  const at = body.indexOf('\u0000');
  if (at <= 0 || at === body.length - 1) return undefined;
  return { tenant: body.slice(0, at), task: body.slice(at + 1) };
}

/**
 * Where Redis records the removals of `tenant`'s own PTAs (the `removed` hash's field for all of them, so the hash
 * holds one entry per tenant, not one per removed task): the highest version any was removed at. It reads as
 * `ownTaskKey(tenant, '')`, which no task is (a task id is never empty), and `ownerOfKey` refuses it.
 */
export function ownRemovalField(tenant: string): string {
  return ownTaskKey(tenant, '');
}

/** True for the key of a tenant's own PTA (left out of the pooled prior and of the shared task list). */
export function isOwnKey(key: string): boolean {
  return ownerOfKey(key) !== undefined;
}
