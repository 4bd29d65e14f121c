/**
 * T84: removing an own PTA the tenant does not hold (`DELETE /v1/tasks/:task/pta`, no budget: any pace) read the
 * bytes of every own PTA the tenant holds first, as the quota does at the first change of a burst (each one's
 * current version looked up and measured, read again once out of the cache): with 400 of them ~85 ms of CPU a
 * request, against 0.3 ms for another 404. It is answered `unknown_task` before the quota now; a removal of one it
 * holds still frees its bytes there. Real runs of pylint-dev__astroid-1196.
 */
import { describe, expect, it } from 'vitest';
import { OwnPtaQuota } from '../../src/server/own-pta-quota.js';
import { ScopedReferences } from '../../src/server/reference-scope.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import type { ReferenceStorePort } from '../../src/store/store-port.js';
import { statesOf } from '../store/states.js';
import { ASTROID, removeDir, tempDir } from './helpers.js';

describe('removing an own PTA the tenant does not hold (T84)', () => {
  it("reads none of the tenant's other PTAs, and a real removal still frees its bytes", async () => {
    const dataDir = await tempDir();
    try {
      const store = await ReferenceStore.open({ dataDir, seedDirs: [] });
      const states = await statesOf(ASTROID.passA);
      // The quota's store counts what it measures: `sizes` is its read of every own PTA's bytes.
      let measured = 0;
      const counting = new Proxy(store, {
        get(target, name, receiver) {
          if (name === 'sizes') return (tasks: readonly string[]) => ((measured += tasks.length), target.sizes(tasks));
          const value = Reflect.get(target, name, receiver) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      }) as ReferenceStorePort;
      const quota = new OwnPtaQuota(counting, 1 << 30);
      const scoped = new ScopedReferences(store, 'tenant', quota);
      const bob = { tenant: 'bob', role: 'agent' as const };
      for (let i = 0; i < 5; i++) await scoped.add(bob, `own-${i}`, states);
      measured = 0;
      for (let i = 0; i < 10; i++) expect(await scoped.remove(bob, `not-held-${i}`)).toBeUndefined();
      expect(measured).toBe(0);
      expect(await scoped.remove(bob, 'own-0')).toMatchObject({ scope: 'tenant', version: 1 });
      expect(await quota.held('bob')).toBe((await store.sizes(await store.ownTasks('bob'))).reduce((a, b) => a + b, 0));
      await store.close();
    } finally {
      await removeDir(dataDir);
    }
  });
});
