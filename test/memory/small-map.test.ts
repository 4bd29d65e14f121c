/**
 * SmallMap (core/memory/small-map.ts) answers as a `Map` on generated operations, small (its array) and past
 * SMALL_MAX (a `Map` inside), iterating while deleting; and the session's maps it replaced are SmallMaps (the memory
 * bench measures their bytes: bench/README.md, "Memory per session, fourteenth pass").
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SMALL_MAX, SmallMap } from '../../src/core/memory/small-map.js';
import { ShadowWorkspace } from '../../src/core/state/shadow-workspace.js';
import { LabelHistory } from '../../src/core/labeler/history.js';
import { createRetryDetector } from '../../src/core/signals/repeats.js';

type Op = { op: 'set'; key: string; value: number } | { op: 'delete'; key: string } | { op: 'get'; key: string } | { op: 'has'; key: string } | { op: 'drain'; keep: number };

function ops(keys: number): fc.Arbitrary<Op[]> {
  const key = fc.oneof(
    fc.integer({ min: 0, max: keys }).map((i) => `k${i}`),
    fc.constantFrom('', '__proto__', 'constructor', 'a'.repeat(40)),
  );
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 5, arbitrary: fc.record({ op: fc.constant('set' as const), key, value: fc.integer() }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), key }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('get' as const), key }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('has' as const), key }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('drain' as const), keep: fc.integer({ min: 0, max: 8 }) }) },
  );
  return fc.array(op, { maxLength: 4 * keys + 20 });
}

/** Both maps after `ops`, and every answer on the way, equal. */
function sameAsMap(list: Op[]): void {
  const small = new SmallMap<number>();
  const map = new Map<string, number>();
  for (const o of list) {
    if (o.op === 'set') {
      expect(small.set(o.key, o.value)).toBe(small);
      map.set(o.key, o.value);
    } else if (o.op === 'delete') expect(small.delete(o.key)).toBe(map.delete(o.key));
    else if (o.op === 'get') expect(small.get(o.key)).toBe(map.get(o.key));
    else if (o.op === 'has') expect(small.has(o.key)).toBe(map.has(o.key));
    else {
      // Deleting the oldest entries while iterating, as the workspace and cold-files do.
      let n = 0;
      for (const [k] of small) if (n++ >= o.keep) small.delete(k);
      n = 0;
      for (const [k] of map) if (n++ >= o.keep) map.delete(k);
    }
    expect(small.size).toBe(map.size);
    expect(small.firstKey()).toBe(map.keys().next().value);
  }
  expect([...small]).toEqual([...map]);
  expect([...small.keys()]).toEqual([...map.keys()]);
  expect([...small.values()]).toEqual([...map.values()]);
  expect([...small.entries()]).toEqual([...map.entries()]);
  small.clear();
  expect(small.size).toBe(0);
  expect(small.get('k0')).toBeUndefined();
}

describe('SmallMap', () => {
  it('answers as a Map on generated sets, gets, deletes and drains, small and past SMALL_MAX', () => {
    fc.assert(fc.property(ops(8), sameAsMap), { numRuns: 300 });
    fc.assert(fc.property(ops(3 * SMALL_MAX), sameAsMap), { numRuns: 60 });
  });

  it('keeps a key set again in its place, and a deleted then set key last', () => {
    const m = new SmallMap<number>().set('a', 1).set('b', 2).set('c', 3);
    m.set('a', 4);
    expect([...m]).toEqual([
      ['a', 4],
      ['b', 2],
      ['c', 3],
    ]);
    m.delete('a');
    m.set('a', 5);
    expect([...m.keys()]).toEqual(['b', 'c', 'a']);
    expect(m.firstKey()).toBe('b');
  });

  it('replaces the Maps a session kept for its files, flags, scripts and last steps', () => {
    const ws = new ShadowWorkspace() as unknown as Record<string, unknown>;
    expect(ws.files).toBeInstanceOf(SmallMap);
    expect(ws.hot).toBeInstanceOf(SmallMap);
    const history = new LabelHistory() as unknown as Record<string, unknown>;
    expect(history.flags).toBeInstanceOf(SmallMap);
    expect(history.scripts).toBeInstanceOf(SmallMap);
    const retries = createRetryDetector() as unknown as Record<string, Record<string, unknown>>;
    expect(retries.lastSeen).toBeInstanceOf(SmallMap);
    expect(retries.changes!.lastFile).toBeInstanceOf(SmallMap);
  });
});
