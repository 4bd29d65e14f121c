/**
 * Store keys of tenants' own PTAs (the `tenant` reference scope): no task id the protocol takes is one, every
 * (tenant, task) has its own, and a key reads back to exactly the tenant and task it was made of, so no
 * tenant's name or task id reaches another tenant's PTA.
 */
import { describe, expect, it } from 'vitest';
import { HOSTILE_IDS } from '../../bench/drills/hostile-ids.js';
import { taskIdSchema, TASK_ID_MAX_LENGTH } from '../../src/protocol/client-messages.js';
import { TENANT_NAME } from '../../src/server/principal.js';
import { taskFileName } from '../../src/store/file-names.js';
import { isOwnKey, ownerOfKey, ownTaskKey } from '../../src/store/tenant-keys.js';

const TASKS = ['django__django-11099', ...HOSTILE_IDS.filter((t) => taskIdSchema.safeParse(t).success), 'x\u0000', `alice\u0000django${'~'.repeat(200)}`, '~'.repeat(TASK_ID_MAX_LENGTH)];
const TENANTS = ['alice', 'bob', 'a', 'alice.b', 'token-0123456789ab', 'x'.repeat(64)];

describe('own-PTA store keys', () => {
  it('are never a task id, and no task id reads as one', () => {
    for (const tenant of TENANTS) expect(TENANT_NAME.test(tenant), tenant).toBe(true);
    for (const task of TASKS) {
      expect(isOwnKey(task), JSON.stringify(task)).toBe(false);
      for (const tenant of TENANTS) expect(taskIdSchema.safeParse(ownTaskKey(tenant, task)).success).toBe(false);
    }
  });

  it('are one per tenant and task, and read back to exactly them', () => {
    const seen = new Map<string, string>();
    for (const tenant of TENANTS) {
      for (const task of TASKS) {
        const key = ownTaskKey(tenant, task);
        expect(ownerOfKey(key)).toEqual({ tenant, task });
        expect(seen.get(key), key).toBeUndefined();
        seen.set(key, `${tenant} ${task}`);
        // Hashed file names: one per key too (the file store reads the key back from the file).
        expect(taskFileName(key)).toMatch(/~[0-9a-f]{32}\.json$/);
      }
    }
    expect(new Set([...seen.keys()].map(taskFileName)).size).toBe(seen.size);
  });

  it('refuse a tenant name that would make a key ambiguous', () => {
    // A NUL in the tenant would let "a" + "b\0x" and "a\0b" + "x" share a key; token grants never allow one.
    expect(() => ownTaskKey('a\u0000b', 'x')).toThrow();
    expect(() => ownTaskKey('', 'x')).toThrow();
  });
});
