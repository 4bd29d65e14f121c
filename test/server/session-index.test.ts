/**
 * The registry's sessions in ordinal order, in all and per tenant (T48): a page of `GET /v1/sessions` and a live-feed
 * scope read their own tenant's sessions only, found by the ordinals, and a session registered again (rebuilt from
 * the journal) is listed at its new ordinal, once.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../src/server/connection.js';
import { createMetrics } from '../../src/server/metrics.js';
import { resolveOptions } from '../../src/server/options.js';
import type { Session } from '../../src/server/session.js';
import { SessionIndex } from '../../src/server/session-index.js';
import { sessionPage } from '../../src/server/session-list.js';
import { SessionRegistry } from '../../src/server/session-registry.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { recordingSocket, removeDir, tempDir } from './helpers.js';

const STEP = { tool: 'bash', action: { kind: 'shell', command: 'ls' }, observation: 'a.py' };
const fake = (tenant: string, ordinal: number): Session => ({ tenant, ordinal, id: `${tenant}${ordinal}` }) as unknown as Session;
const ids = (sessions: Iterable<Session>): string[] => [...sessions].map((s) => s.id);

describe('SessionIndex', () => {
  it('gives a scope its own sessions after an ordinal, oldest first, without the removed ones', () => {
    const index = new SessionIndex();
    const all = Array.from({ length: 300 }, (_, i) => fake(i % 3 === 0 ? 'a' : 'b', i + 1));
    for (const s of all) index.add(s);
    expect(ids(index.of('a'))).toEqual(ids(all.filter((s) => s.tenant === 'a')));
    expect(ids(index.of('a', 150))).toEqual(ids(all.filter((s) => s.tenant === 'a' && s.ordinal > 150)));
    expect(ids(index.of(undefined, 298))).toEqual(['b299', 'b300']);
    expect(ids(index.of('c'))).toEqual([]);
    // Removing most of them compacts the lists; what is left keeps its order and is still found by ordinal.
    for (const s of all) if (s.ordinal % 10 !== 0) index.delete(s);
    expect(ids(index.of(undefined))).toEqual(ids(all.filter((s) => s.ordinal % 10 === 0)));
    expect(ids(index.of('a', 100))).toEqual(ids(all.filter((s) => s.tenant === 'a' && s.ordinal % 10 === 0 && s.ordinal > 100)));
    index.delete(all[0]!); // removed before: nothing happens
    expect(ids(index.of('b', 300))).toEqual([]);
  });

  it('lists a session registered again once, at its new ordinal', () => {
    const index = new SessionIndex();
    const [x, y] = [fake('a', 1), fake('a', 2)];
    index.add(x);
    index.add(y);
    index.delete(x);
    (x as { ordinal: number }).ordinal = 3;
    index.add(x);
    expect([...index.of('a')]).toEqual([y, x]);
    expect([...index.of('a', 2)]).toEqual([x]);
  });

  it('keeps no removed session alive until it compacts (only its entry), and lists one added twice once', () => {
    const index = new SessionIndex();
    const all = Array.from({ length: 10 }, (_, i) => fake('a', i + 1));
    for (const s of all) index.add(s);
    for (const s of all.slice(0, 5)) index.delete(s);
    // 10 entries, 5 live: not compacted yet (the flood drill's freed sessions, with their ended state, stayed
    // referenced from such entries until then); each live one is referenced in all and in its tenant's list.
    expect(index.referenced).toBe(10);
    expect(ids(index.of('a'))).toEqual(ids(all.slice(5)));
    const x = all[9]!;
    (x as { ordinal: number }).ordinal = 11;
    index.add(x);
    expect(ids(index.of('a'))).toEqual(ids(all.slice(5)));
    expect(index.referenced).toBe(10);
  });
});

describe('the registry pages a session rebuilt from the journal once', () => {
  let dir: string;
  let registry: SessionRegistry;
  beforeAll(async () => {
    dir = await tempDir();
    const store = await ReferenceStore.open({ dataDir: dir });
    registry = new SessionRegistry({ store, analyzers: defaultAnalyzers(), metrics: createMetrics(store), log: pino({ level: 'silent' }), options: resolveOptions({}), connections: new Map() });
    for (let i = 0; i < 5; i++) {
      const started = await registry.start({ type: 'start', session: `s${i}`, task: 't' }, new Connection(i + 1, recordingSocket(), 1 << 24));
      if (!started.ok) throw new Error(started.error.message);
      started.value.step(0, STEP);
    }
  }, 60_000);
  afterAll(async () => {
    await registry.endAll();
    await removeDir(dir);
  });

  it('walks pages of one row from the first to the last, each session once', () => {
    const first = registry.find('default', 's0')!;
    registry.adopt(first); // as a resume on this replica rebuilds a session it held: a new ordinal, the last
    const walk = (sessions: () => Iterable<Session>): string[] => {
      const seen: string[] = [];
      let after = 0;
      for (;;) {
        const page = sessionPage(sessions(), { all: true, tenant: undefined, after, limit: 1 });
        seen.push(...ids(page.rows));
        if (page.next === undefined) return seen;
        after = Number(page.next);
      }
    };
    const order = ['s1', 's2', 's3', 's4', 's0'];
    expect(walk(() => registry.index.of(undefined))).toEqual(order);
    // The registry's map keeps the same order (it kept s0 at its first place: pages after it lost s1-s4).
    expect(walk(() => registry.sessions.values())).toEqual(order);
  });
});
