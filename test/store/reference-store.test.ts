import { chmod, cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ptaFromJson } from '../../src/core/pta/index.js';
import type { State } from '../../src/core/types.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { taskFileName } from '../../src/store/file-names.js';
import { LOCK_NAME } from '../../src/store/data-lock.js';
import { ASTROID, removeDir, tempDir } from '../server/helpers.js';
import { statesOf } from './states.js';

let statesA: State[];
let statesB: State[];
const dirs: string[] = [];
/** A folder's files but the store's lock. */
const entries = async (d: string): Promise<string[]> => (await readdir(d)).filter((n) => n !== LOCK_NAME);

async function dir(): Promise<string> {
  const d = await tempDir();
  dirs.push(d);
  return d;
}

beforeAll(async () => {
  statesA = await statesOf(ASTROID.passA);
  statesB = await statesOf(ASTROID.passB);
});

afterEach(async () => {
  for (const d of dirs.splice(0)) {
    await chmod(d, 0o755).catch(() => undefined);
    await removeDir(d);
  }
});

// What every store does (versions, races, the prior, reopen, seeds) is in the conformance suite
// (test/store/conformance.ts); these cases are the file store's own.
describe('ReferenceStore', () => {
  it('adds references with growing versions, atomically, and reloads them lazily', async () => {
    const data = await dir();
    const store = await ReferenceStore.open({ dataDir: data });
    expect(await store.tasks()).toEqual([]);
    expect((await store.addReference(ASTROID.task, statesA)).version).toBe(1);
    expect(await store.reference(ASTROID.task)).toMatchObject({ kind: 'prior' });
    const v2 = await store.addReference(ASTROID.task, statesB);
    expect(v2.version).toBe(2);
    expect(await store.reference(ASTROID.task)).toMatchObject({ kind: 'pta', pta: { version: 2 } });
    expect(await entries(data)).toEqual([taskFileName(ASTROID.task)]);

    await store.close();
    const reopened = await ReferenceStore.open({ dataDir: data });
    expect(reopened.cacheStats()).toMatchObject({ entries: 0, misses: 0 });
    expect(await reopened.get(ASTROID.task)).toEqual(v2);
    expect(await reopened.get(ASTROID.task)).toEqual(v2);
    expect(reopened.cacheStats()).toMatchObject({ entries: 1, misses: 1, hits: 1 });
    expect(await reopened.list()).toEqual([{ task: ASTROID.task, version: 2, references: 2, nodes: expect.any(Number), paths: expect.any(Number) }]);
  });

  it('seeds from a read-only directory and writes only to the data directory', async () => {
    const seed = await dir();
    const first = await ReferenceStore.open({ dataDir: seed });
    await first.addReference(ASTROID.task, statesA);
    await first.addReference(ASTROID.task, statesB);
    await first.close();
    await chmod(seed, 0o555);
    const data = await dir();
    const store = await ReferenceStore.open({ dataDir: data, seedDirs: [seed, path.join(seed, 'missing')], warn: () => undefined });
    expect(await store.tasks()).toEqual([ASTROID.task]);
    expect((await store.get(ASTROID.task))?.version).toBe(2);
    expect((await store.addReference(ASTROID.task, statesA)).version).toBe(3);
    expect(await entries(data)).toEqual([taskFileName(ASTROID.task)]);
    const seeded = ptaFromJson(await readFile(path.join(seed, taskFileName(ASTROID.task)), 'utf8'));
    expect(seeded.ok && seeded.value.version).toBe(2);
  });

  it('moves a truncated PTA file aside with a warning naming it instead of crashing, and removes stale temp files', async () => {
    const data = await dir();
    await writeFile(path.join(data, 'broken.json'), '{"schema": 1, "task": "broken"');
    await writeFile(path.join(data, '.broken.json.1.abc.tmp'), 'half written');
    const warnings: string[] = [];
    const store = await ReferenceStore.open({ dataDir: data, warn: (m) => warnings.push(m) });
    expect(await entries(data)).toEqual([expect.stringMatching(/^broken\.json\.unreadable-\d{8}T\d{6}Z$/)]);
    expect(warnings).toEqual([expect.stringMatching(/broken\.json: truncated or corrupt: .* moved aside/)]);
    expect(await store.get('broken')).toBeUndefined();
    expect(await store.list()).toEqual([]);
  });

  it('bounds the cache by entries', async () => {
    const data = await dir();
    const writer = await ReferenceStore.open({ dataDir: data });
    for (const t of ['a', 'b', 'c']) await writer.addReference(t, statesA);
    await writer.close();
    const store = await ReferenceStore.open({ dataDir: data, maxEntries: 2 });
    for (const t of ['a', 'b', 'c']) await store.get(t);
    expect(store.cacheStats()).toMatchObject({ entries: 2, misses: 3 });
    await store.get('a');
    expect(store.cacheStats()).toMatchObject({ misses: 4 });
  });
});

describe('seed copy', () => {
  it('loads a bundled-style directory of PTA files named by task', async () => {
    const src = await dir();
    const w = await ReferenceStore.open({ dataDir: src });
    await w.addReference('x__y-1', statesA);
    await w.close();
    const seed = await dir();
    await mkdir(path.join(seed, 'example'));
    await cp(path.join(src, 'x__y-1.json'), path.join(seed, 'example', 'x__y-1.json'));
    const store = await ReferenceStore.open({ dataDir: await dir(), seedDirs: [path.join(seed, 'example')] });
    expect(await store.has('x__y-1')).toBe(true);
  });
});
