/**
 * One conformance suite for every reference store (`ReferenceStorePort`): the
 * embedded file store and the Redis store run the same cases
 * (test/store/file-store.conformance.test.ts, test/redis/redis-store.conformance.test.ts).
 */
import { chmod } from 'node:fs/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UNIFORM_PRIOR, priorFromPtas } from '../../src/core/prior.js';
import type { State } from '../../src/core/types.js';
import { ptaToJson, type PtaLimits } from '../../src/core/pta/index.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { SteplensError } from '../../src/errors.js';
import type { ReferenceStorePort } from '../../src/store/store-port.js';
import { ownTaskKey } from '../../src/store/tenant-keys.js';
import { ASTROID, removeDir, tempDir } from '../server/helpers.js';
import { statesOf } from './states.js';

/** Opens stores over one backing (a directory, a Redis key prefix); every call opens another store over the same data. */
export type StoreOpener = (options?: { seedDirs?: string[]; limits?: PtaLimits }) => Promise<ReferenceStorePort>;

export interface StoreHarness {
  /** A new, empty backing. */
  fresh(): Promise<StoreOpener>;
}

export function describeReferenceStore(name: string, harness: () => StoreHarness): void {
  describe(`reference store conformance: ${name}`, () => {
    let statesA: State[];
    let statesB: State[];
    let failing: State[];
    const dirs: string[] = [];

    beforeAll(async () => {
      statesA = await statesOf(ASTROID.passA);
      statesB = await statesOf(ASTROID.passB);
      failing = await statesOf(ASTROID.fail);
    });

    afterEach(async () => {
      for (const d of dirs.splice(0)) {
        await chmod(d, 0o755).catch(() => undefined);
        await removeDir(d);
      }
    });

    it('starts empty: no task, the uniform prior', async () => {
      const store = await (await harness().fresh())();
      expect(await store.tasks()).toEqual([]);
      expect(await store.has(ASTROID.task)).toBe(false);
      expect(await store.get(ASTROID.task)).toBeUndefined();
      expect(await store.version(ASTROID.task)).toBeUndefined();
      expect(await store.reference(ASTROID.task)).toEqual({ kind: 'prior', prior: UNIFORM_PRIOR });
      expect(await store.list()).toEqual([]);
      expect(store.available()).toBe(true);
    });

    it('grows a task version by version and scores against its PTA once it holds minReferences', async () => {
      const store = await (await harness().fresh())();
      expect(store.minReferences).toBe(2);
      const v1 = await store.addReference(ASTROID.task, statesA);
      expect(v1.version).toBe(1);
      expect(await store.reference(ASTROID.task)).toMatchObject({ kind: 'prior' });
      const v2 = await store.addReference(ASTROID.task, statesB);
      expect(v2.version).toBe(2);
      expect(await store.version(ASTROID.task)).toBe(2);
      expect(await store.get(ASTROID.task)).toEqual(v2);
      expect(await store.reference(ASTROID.task)).toEqual({ kind: 'pta', pta: v2 });
      expect(await store.tasks()).toEqual([ASTROID.task]);
      expect(await store.list()).toEqual([{ task: ASTROID.task, version: 2, references: 2, nodes: expect.any(Number), paths: expect.any(Number) }]);
    });

    it('loses no reference when additions to one task race', async () => {
      const store = await (await harness().fresh())();
      const versions = await Promise.all([statesA, statesB, statesA, statesB].map((s) => store.addReference('t', s)));
      expect(versions.map((p) => p.version).sort()).toEqual([1, 2, 3, 4]);
      expect((await store.get('t'))?.references).toHaveLength(4);
    });

    it('pools the prior over every task and follows changes', async () => {
      const store = await (await harness().fresh())();
      expect(await store.prior()).toEqual(UNIFORM_PRIOR);
      const a = await store.addReference('one', statesA);
      expect(await store.prior()).toEqual(priorFromPtas([a]));
      const b = await store.addReference('two', statesB);
      expect(await store.prior()).toEqual(priorFromPtas([a, b]));
    });

    it('keeps every task across a reopen', async () => {
      const open = await harness().fresh();
      const first = await open();
      await first.addReference('one', statesA);
      const two = await first.addReference('two', statesA);
      await first.addReference('two', statesB).then((p) => expect(p.version).toBe(two.version + 1));
      await first.close();
      const again = await open();
      expect(await again.tasks()).toEqual(['one', 'two']);
      expect(await again.version('two')).toBe(2);
      expect((await again.get('two'))?.references).toHaveLength(2);
    });

    it('reads a PTA that is not cached once for every get that comes while it is read', async () => {
      const open = await harness().fresh();
      const first = await open();
      await first.addReference('one', statesA);
      const stored = await first.addReference('one', statesB);
      await first.close();
      const again = await open();
      const before = again.cacheStats().misses;
      const read = await Promise.all(Array.from({ length: 20 }, () => again.get('one')));
      expect(read.every((pta) => pta === read[0])).toBe(true);
      expect(read[0]).toEqual(stored);
      expect(again.cacheStats().misses - before).toBe(1);
    });

    it('refuses a reference past a cap of the task (references, nodes, bytes) with too_large, and changes nothing', async () => {
      const open = await harness().fresh();
      const loose = { maxReferences: 1000, maxNodes: 1_000_000, maxBytes: 1e9 };
      const first = await open({ limits: loose });
      const v1 = await first.addReference(ASTROID.task, statesA);
      const v2 = await first.addReference(ASTROID.task, statesB);
      const bytes = Buffer.byteLength(ptaToJson(v2));
      await first.close();
      for (const [cap, limits] of [
        ['references', { ...loose, maxReferences: 2 }],
        ['nodes', { ...loose, maxNodes: v2.nodes.length - 1 }],
        ['bytes', { ...loose, maxBytes: bytes }],
      ] as const) {
        const store = await open({ limits });
        // A run unlike the two held: it adds nodes and bytes.
        const refused = store.addReference(ASTROID.task, failing);
        await expect(refused, cap).rejects.toMatchObject({ code: 'too_large', message: expect.stringContaining(`task ${ASTROID.task}: a reference of ${failing.length} steps`) as unknown });
        expect(await store.version(ASTROID.task)).toBe(2);
        expect(await store.get(ASTROID.task)).toEqual(v2);
        // A new task is still taken (the caps are per task).
        expect((await store.addReference(`other-${cap}`, statesA)).version).toBe(1);
        await store.close();
      }
      expect(v1.version).toBe(1);
      // Within the caps it grows as before.
      const store = await open({ limits: { ...loose, maxReferences: 3 } });
      expect((await store.addReference(ASTROID.task, statesA)).version).toBe(3);
    });

    it("keeps tenants' own PTAs (tenant reference scope) apart from the shared task and each other, out of the prior, across a reopen", async () => {
      const open = await harness().fresh();
      const store = await open();
      const [alice, bob] = [ownTaskKey('alice', ASTROID.task), ownTaskKey('bob', ASTROID.task)];
      const shared = await store.addReference(ASTROID.task, statesA);
      await store.addReference(alice, statesB);
      const mine = await store.addReference(alice, failing);
      await store.addReference(bob, failing);
      expect([mine.task, mine.version, (await store.get(bob))?.version, (await store.get(ASTROID.task))?.version]).toEqual([alice, 2, 1, 1]);
      expect(await store.reference(alice)).toEqual({ kind: 'pta', pta: mine });
      // The pooled prior scores every tenant's tasks without a PTA: only shared PTAs feed it.
      expect(await store.prior()).toEqual(priorFromPtas([shared]));
      expect(await store.reference(ASTROID.task)).toEqual({ kind: 'prior', prior: priorFromPtas([shared]) });
      expect((await store.list([alice, 'no-such-task'])).map((t) => [t.task, t.references])).toEqual([[alice, 2]]);
      await store.close();
      const again = await open();
      expect(await again.tasks()).toEqual([ASTROID.task, alice, bob].sort());
      expect(await again.get(alice)).toEqual(mine);
      expect(await again.prior()).toEqual(priorFromPtas([shared]));
    });

    it("lists the shared tasks and each tenant's own PTAs apart, as they are added and removed, across a reopen (T82)", async () => {
      const open = await harness().fresh();
      const store = await open();
      const [alice, alice2, bob] = [ownTaskKey('alice', ASTROID.task), ownTaskKey('alice', 'other'), ownTaskKey('bob', ASTROID.task)];
      for (const key of [ASTROID.task, 'shared-2', alice, alice2, bob]) await store.addReference(key, statesA);
      expect(await store.sharedTasks()).toEqual([ASTROID.task, 'shared-2'].sort());
      expect(await store.ownTasks('alice')).toEqual([alice, alice2].sort());
      expect(await store.ownTasks('bob')).toEqual([bob]);
      expect(await store.ownTasks('carol')).toEqual([]);
      await store.remove(alice2);
      await store.remove('shared-2');
      expect(await store.ownTasks('alice')).toEqual([alice]);
      expect(await store.sharedTasks()).toEqual([ASTROID.task]);
      await store.addReference(alice2, statesB);
      await store.close();
      const again = await open();
      expect(await again.sharedTasks()).toEqual([ASTROID.task]);
      expect(await again.ownTasks('alice')).toEqual([alice, alice2].sort());
      expect(await again.ownTasks('bob')).toEqual([bob]);
    });

    it('tells the JSON bytes of each PTA it holds, and lets a growth be admitted or refused before it is stored', async () => {
      const open = await harness().fresh();
      const store = await open();
      const v1 = await store.addReference('sized', statesA);
      const calls: Array<[number, number]> = [];
      const settled: boolean[] = [];
      const admit = (bytes: number, previous: number) => {
        calls.push([bytes, previous]);
        return (stored: boolean) => void settled.push(stored);
      };
      const v2 = await store.addReference('sized', statesB, { by: 't', admit });
      const [b1, b2] = [v1, v2].map((p) => Buffer.byteLength(ptaToJson(p)));
      expect(calls).toEqual([[b2, b1]]);
      expect(settled).toEqual([true]);
      expect(await store.sizes(['sized', 'none'])).toEqual([b2, 0]);
      // Refused: nothing stored, the PTA held is kept.
      const no = () => {
        throw new SteplensError('quota_exceeded', 'no room');
      };
      await expect(store.addReference('sized', failing, { by: 't', admit: no })).rejects.toMatchObject({ code: 'quota_exceeded' });
      await expect(store.addReference('fresh', failing, { by: 't', admit: no })).rejects.toMatchObject({ code: 'quota_exceeded' });
      expect(await store.get('sized')).toEqual(v2);
      expect(await store.has('fresh')).toBe(false);
      await store.close();
      // Read back (Redis rebuilds it from its chain: the same PTA, its keys maybe in another order).
      const again = await open();
      const read = await again.get('sized');
      expect(read).toEqual(v2);
      expect(await again.sizes(['sized'])).toEqual([Buffer.byteLength(ptaToJson(read!))]);
    });

    it('removes a task: gone from get, has, version, tasks, list, sizes, reference and the prior, across a reopen; nothing else changes', async () => {
      const open = await harness().fresh();
      const store = await open();
      await store.addReference('gone', statesA);
      const held = await store.addReference('gone', statesB);
      const kept = await store.addReference('kept', statesA);
      const [alice, bob] = [ownTaskKey('alice', 'gone'), ownTaskKey('bob', 'gone')];
      await store.addReference(alice, failing);
      const bobs = await store.addReference(bob, failing);
      const heldJson = ptaToJson(held);
      expect(await store.prior()).toEqual(priorFromPtas([held, kept]));

      const removed = await store.remove('gone');
      expect(removed).toMatchObject({ version: 2, bytes: Buffer.byteLength(heldJson) });
      // What the store still keeps of it, and how long (Redis: the chain, for sessions pinned to it), for the tenants' quota (T79).
      expect(removed?.keptMs).toSatisfy((ms: number | undefined) => (store.kind === 'redis' ? ms !== undefined && ms > 0 : ms === undefined));
      expect(await store.remove(alice)).toMatchObject({ version: 1, bytes: expect.any(Number) as unknown });
      const gone = async (s: ReferenceStorePort) => {
        for (const task of ['gone', alice]) {
          expect(await s.has(task), task).toBe(false);
          expect(await s.get(task), task).toBeUndefined();
          expect(await s.version(task), task).toBeUndefined();
        }
        expect(await s.tasks()).toEqual(['kept', bob].sort());
        expect((await s.list()).map((t) => t.task)).toEqual(['kept', bob].sort());
        expect(await s.list(['gone', alice])).toEqual([]);
        expect(await s.sizes(['gone', alice, 'kept'])).toEqual([0, 0, Buffer.byteLength(ptaToJson(kept))]);
        // The prior pools what is left; a session of the task is scored against it.
        expect(await s.prior()).toEqual(priorFromPtas([kept]));
        expect(await s.reference('gone')).toEqual({ kind: 'prior', prior: priorFromPtas([kept]) });
        expect(await s.get(bob)).toEqual(bobs);
      };
      await gone(store);
      // A PTA handed out before (a running session's) is left as it was.
      expect(ptaToJson(held)).toBe(heldJson);
      // Nothing left to remove, and a task never held: undefined, nothing changes.
      expect(await store.remove('gone')).toBeUndefined();
      expect(await store.remove('never')).toBeUndefined();
      await store.close();
      await gone(await open());
    });

    it('numbers the next PTA of a removed task past the removed version, across a reopen', async () => {
      const open = await harness().fresh();
      const store = await open();
      await store.addReference('again', statesA);
      await store.addReference('again', statesB);
      expect((await store.remove('again'))?.version).toBe(2);
      const next = await store.addReference('again', failing);
      // A new PTA of one reference, never version 1 again: a cached or pinned version 1 or 2 is not this one.
      expect([next.version, next.references.length]).toEqual([3, 1]);
      expect(await store.get('again')).toEqual(next);
      expect(await store.prior()).toEqual(priorFromPtas([next]));
      expect((await store.remove('again'))?.version).toBe(3);
      await store.close();
      const again = await open();
      expect(await again.has('again')).toBe(false);
      expect((await again.addReference('again', statesA)).version).toBe(4);
      expect(await again.tasks()).toEqual(['again']);
    });

    it('serialises a removal with additions racing it: nothing reported stored is lost, nothing removed comes back', async () => {
      const store = await (await harness().fresh())();
      await store.addReference('race', statesA);
      const adds = [statesB, failing, statesA, statesB].map((s) => store.addReference('race', s));
      const removal = store.remove('race');
      const later = [failing, statesA].map((s) => store.addReference('race', s));
      const [versions, removed] = [(await Promise.all([...adds, ...later])).map((p) => p.version), await removal];
      expect(removed).toBeDefined();
      const cut = removed!.version;
      // Every addition got its own version; those up to the removed one were in the PTA removed, the others are in the one held now.
      expect(new Set(versions).size).toBe(versions.length);
      const after = versions.filter((v) => v > cut);
      const now = await store.get('race');
      if (after.length === 0) expect(now).toBeUndefined();
      else expect([now?.version, now?.references.length]).toEqual([Math.max(...after), after.length]);
      expect(versions.filter((v) => v <= cut).length).toBe(cut - 1);
    });

    it('takes tasks it lacks from seed directories, and grows them from the seeded version', async () => {
      const seed = await tempDir();
      dirs.push(seed);
      const writer = await ReferenceStore.open({ dataDir: seed });
      await writer.addReference(ASTROID.task, statesA);
      await writer.addReference(ASTROID.task, statesB);
      await chmod(seed, 0o555);
      const store = await (await harness().fresh())({ seedDirs: [seed] });
      expect(await store.tasks()).toEqual([ASTROID.task]);
      expect(await store.version(ASTROID.task)).toBe(2);
      expect((await store.addReference(ASTROID.task, statesA)).version).toBe(3);
      expect(await store.reference(ASTROID.task)).toMatchObject({ kind: 'pta', pta: { version: 3 } });
    });

    it('keeps a removed seeded task removed: the seed does not answer for it again, across a reopen', async () => {
      const seed = await tempDir();
      dirs.push(seed);
      const writer = await ReferenceStore.open({ dataDir: seed });
      await writer.addReference(ASTROID.task, statesA);
      await writer.addReference(ASTROID.task, statesB);
      await writer.addReference('other', statesA);
      await writer.close();
      await chmod(seed, 0o555);
      const open = await harness().fresh();
      const store = await open({ seedDirs: [seed] });
      expect((await store.remove(ASTROID.task))?.version).toBe(2);
      expect(await store.tasks()).toEqual(['other']);
      await store.close();
      const again = await open({ seedDirs: [seed] });
      expect(await again.tasks()).toEqual(['other']);
      expect(await again.get(ASTROID.task)).toBeUndefined();
      expect((await again.addReference(ASTROID.task, failing)).version).toBe(3);
    });
  });
}
