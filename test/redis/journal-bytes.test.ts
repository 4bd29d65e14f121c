/**
 * The per-tenant count of journal bytes (store/redis/journal-bytes.ts) on a real redis-server, through two
 * journals as two replicas: one count for both, of every session's record (from its start), final (from its
 * end) and steps; a start or an append past the budget refused with nothing written, and the bytes back when a
 * session's keys go (its end's resume window over, its TTL run out with no script run, its id opened again over
 * a stale list), never below 0, and nothing left in Redis once all went.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { RedisLink } from '../../src/store/redis/link.js';
import { RedisReferenceStore } from '../../src/store/redis/reference-store.js';
import { RedisSessionJournal } from '../../src/store/redis/session-journal.js';
import type { SessionRecord } from '../../src/store/session-journal.js';
import { useRedis } from './replicas.js';

// Its own server: one test empties it.
const fx = useRedis();
const links: RedisLink[] = [];
let prefixes = 0;
const pin = { kind: 'prior', prior: UNIFORM_PRIOR } as const;
const record = (): SessionRecord => ({ task: 't', format: 'steplens', learn: false, policy: DEFAULT_POLICY, reference: { kind: 'prior', prior: UNIFORM_PRIOR }, createdAt: Date.now() });
const step = (n: number): string => 'x'.repeat(n);
/** The bytes of a record in Redis, counted from its session's start (every `record()` is as long: `createdAt` has 13 digits). */
const REC = Buffer.byteLength(JSON.stringify(record()));

/** Journals (replicas) `owners` sharing one fresh prefix. */
async function journals(owners: string[], options: { budget?: number; ttlMs?: number; keepEndedMs?: number } = {}): Promise<{ prefix: string; js: RedisSessionJournal[] }> {
  const prefix = `jbytes${++prefixes}:`;
  const js = await Promise.all(
    owners.map(async (owner) => {
      const link = new RedisLink({ url: fx.redis.url, prefix });
      links.push(link);
      const store = await RedisReferenceStore.open({ link });
      return new RedisSessionJournal({ link, store, owner, ...options });
    }),
  );
  return { prefix, js };
}

/** Polls until `read` gives `want` (or 5 s passed); returns the last value. */
async function until<T>(read: () => Promise<T>, want: T): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const v = await read();
    if (v === want || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}

// Runs before useRedis' teardown (after-hooks run in reverse order).
afterAll(async () => {
  for (const l of links) await l.close();
});

describe("a tenant's journal bytes in Redis", () => {
  it('are one count for every replica: an append past the budget is refused with nothing written, another tenant unaffected', async () => {
    // Room for two records and 1,000 bytes of steps.
    const { prefix, js } = await journals(['a', 'b'], { budget: 2 * REC + 1000 });
    const [a, b] = js as [RedisSessionJournal, RedisSessionJournal];
    expect(await a.open('mallory:s1', record())).toBe('ok');
    expect(await b.open('mallory:s2', record())).toBe('ok');
    expect(await b.open('alice:s1', record())).toBe('ok');
    expect(await a.append('mallory:s1', 0, step(400), pin)).toBe('ok');
    expect(await b.append('mallory:s2', 0, step(400), pin)).toBe('ok');
    // Each replica hears the shared count in its answers: both records and both steps.
    expect(b.tenantBytes('mallory')).toBe(2 * REC + 800);
    expect(await a.append('mallory:s1', 1, step(300), pin)).toBe('over');
    expect(a.tenantBytes('mallory')).toBe(2 * REC + 800);
    expect(await fx.admin.llen(`${prefix}sl:mallory:s1`)).toBe(1);
    // Within the budget still: accepted, at the seq that was refused.
    expect(await a.append('mallory:s1', 1, step(200), pin)).toBe('ok');
    expect(await b.readTenantBytes('mallory')).toBe(2 * REC + 1000);
    // Alice holds one record: a step as long as one takes her where mallory's second record took him.
    expect(await b.append('alice:s1', 0, step(REC + 900), pin)).toBe('ok');
    expect(await a.readTenantBytes('alice')).toBe(2 * REC + 900);
    // One script call holding several steps counts them in order: the second of these two is past the budget.
    const both = await Promise.all([b.append('alice:s1', 1, step(50), pin), b.append('alice:s1', 2, step(51), pin)]);
    expect(both).toEqual(['ok', 'over']);
  });

  it("count a session's record from its start and its final from its end, until they go: a start past the budget is refused with nothing written, another tenant's opens", async () => {
    const { prefix, js } = await journals(['a', 'b'], { budget: 2 * REC + 100, keepEndedMs: 600 });
    const [a, b] = js as [RedisSessionJournal, RedisSessionJournal];
    expect(await a.open('mallory:s1', record())).toBe('ok');
    expect(a.tenantBytes('mallory')).toBe(REC);
    expect(await b.open('mallory:s2', record())).toBe('ok');
    expect(b.tenantBytes('mallory')).toBe(2 * REC);
    // A third record does not fit: nothing of it is written, and the replica hears the count it was refused at.
    expect(await a.open('mallory:s3', record())).toBe('over');
    expect(await fx.admin.exists(`${prefix}sm:mallory:s3`, `${prefix}sk:mallory:s3`)).toBe(0);
    expect(a.tenantBytes('mallory')).toBe(2 * REC);
    expect(await b.open('alice:s1', record())).toBe('ok');
    // A final is kept and counted even past the budget (refusing it would lose the session's end) ...
    const final = { type: 'final', reason: 'x'.repeat(200) };
    expect(await a.finish('mallory:s1', final, pin)).toBe('ok');
    expect(a.tenantBytes('mallory')).toBe(2 * REC + JSON.stringify(final).length);
    // ... and the tenant's next step waits until it went, with its record, after the resume window.
    expect(await b.append('mallory:s2', 0, step(1), pin)).toBe('over');
    expect(await until(() => b.readTenantBytes('mallory'), REC)).toBe(REC);
    expect(await fx.admin.exists(`${prefix}sm:mallory:s1`)).toBe(0);
    expect(await a.open('mallory:s3', record())).toBe('ok');
    expect(await b.append('mallory:s2', 0, step(100), pin)).toBe('ok');
    expect(await a.readTenantBytes('mallory')).toBe(2 * REC + 100);
  });

  it('come back when an ended session is dropped after its resume window, and when an idle one expires with no script run', async () => {
    const { prefix, js } = await journals(['a'], { budget: 3 * REC + 1000, ttlMs: 1200, keepEndedMs: 600 });
    const a = js[0]!;
    const final = { type: 'final' };
    expect(await a.open('mallory:ended', record())).toBe('ok');
    expect(await a.open('mallory:idle', record())).toBe('ok');
    expect(await a.append('mallory:ended', 0, step(500), pin)).toBe('ok');
    expect(await a.append('mallory:idle', 0, step(500), pin)).toBe('ok');
    expect(await a.finish('mallory:ended', final, pin)).toBe('ok');
    // Ended: still readable for the resume window, and counted as long: both records, the final, both steps.
    expect(await a.readTenantBytes('mallory')).toBe(2 * REC + JSON.stringify(final).length + 1000);
    expect(await until(() => a.readTenantBytes('mallory'), REC + 500)).toBe(REC + 500);
    expect(await fx.admin.exists(`${prefix}sl:mallory:ended`, `${prefix}sm:mallory:ended`)).toBe(0);
    // The idle session's keys expire by their TTL: nobody runs a script on it.
    expect(await until(() => a.readTenantBytes('mallory'), 0)).toBe(0);
    expect(await fx.admin.exists(`${prefix}sl:mallory:idle`, `${prefix}sm:mallory:idle`)).toBe(0);
    // The counting keys went with the last list they counted.
    expect(await fx.admin.keys(`${prefix}j*`)).toEqual([]);
  });

  it('follow a resume or a later step that keeps a session longer, and a stale list of an id opened again', async () => {
    const { prefix, js } = await journals(['a', 'b'], { budget: REC + 1000, ttlMs: 1500 });
    const [a, b] = js as [RedisSessionJournal, RedisSessionJournal];
    expect(await a.open('t:kept', record())).toBe('ok');
    expect(await a.append('t:kept', 0, step(300), pin)).toBe('ok');
    expect(await a.open('u:written', record())).toBe('ok');
    expect(await a.append('u:written', 0, step(100), pin)).toBe('ok');
    await new Promise((r) => setTimeout(r, 900));
    // Taken over: its TTLs start again, and its counts stay as long as its record and list.
    expect(await b.claim('t:kept', pin)).toMatchObject({ length: 1 });
    // A step this late writes the TTLs again (they ran down by more than a tenth): the counts follow them too.
    expect(await a.append('u:written', 1, step(100), pin)).toBe('ok');
    await new Promise((r) => setTimeout(r, 900));
    expect(await fx.admin.exists(`${prefix}sl:t:kept`, `${prefix}sm:t:kept`, `${prefix}sl:u:written`, `${prefix}sm:u:written`)).toBe(4);
    // Its record's count followed the claim as its list's did.
    expect(await b.readTenantBytes('t')).toBe(REC + 300);
    expect(await b.readTenantBytes('u')).toBe(REC + 200);
    // Its record gone but its list not (the two expire apart): a new session of the id drops the list and both counts.
    await fx.admin.del(`${prefix}sm:t:kept`);
    expect(await a.open('t:kept', record())).toBe('ok');
    expect(await a.readTenantBytes('t')).toBe(REC);
    expect(await a.append('t:kept', 0, step(1000), pin)).toBe('ok');
  });

  it('are not counted at all without a budget (0): the steps are written, no count is kept nor read; a replica with one counts its own', async () => {
    const { prefix, js } = await journals(['off', 'on'], { budget: 0, ttlMs: 60_000 });
    const off = js[0]!;
    expect(await off.open('t:s1', record())).toBe('ok');
    for (let seq = 0; seq < 3; seq++) expect(await off.append('t:s1', seq, step(400), pin)).toBe('ok');
    expect(await fx.admin.llen(`${prefix}sl:t:s1`)).toBe(3);
    expect(await fx.admin.exists(`${prefix}jb:t`, `${prefix}jx:t`)).toBe(0);
    expect(off.tenantBytes('t')).toBeUndefined();
    // Its end and the resume window's TTL on the list add no count either.
    expect(await off.finish('t:s1', { type: 'final' })).toBe('ok');
    expect(await fx.admin.exists(`${prefix}jb:t`, `${prefix}jx:t`)).toBe(0);
    // A replica with a budget on the same Redis counts the steps it writes (the uncounted ones are not its).
    const on = new RedisSessionJournal({ link: links.at(-1)!, store: await RedisReferenceStore.open({ link: links.at(-1)! }), owner: 'on', budget: REC + 1000 });
    expect(await on.open('t:s2', record())).toBe('ok');
    expect(on.tenantBytes('t')).toBe(REC);
    expect(await on.append('t:s2', 0, step(300), pin)).toBe('ok');
    expect(on.tenantBytes('t')).toBe(REC + 300);
    expect(await off.append('t:s2', 1, step(300), pin)).toBe('lost');
  });

  it('never go below 0 nor block once Redis was emptied, or lost the counts or the expiry set but not the lists', async () => {
    const { prefix, js } = await journals(['a'], { budget: REC + 1000, ttlMs: 400 });
    const a = js[0]!;
    expect(await a.open('t:s1', record())).toBe('ok');
    expect(await a.append('t:s1', 0, step(1000), pin)).toBe('ok');
    expect(await a.append('t:s1', 1, step(1), pin)).toBe('over');
    await fx.admin.flushall();
    expect(await a.readTenantBytes('t')).toBe(0);
    expect(await a.append('t:s1', 1, step(1), pin)).toBe('gone');
    expect(await a.open('t:s1', record())).toBe('ok');
    expect(await a.append('t:s1', 0, step(1000), pin)).toBe('ok');
    // The count hash lost (by hand) while its expiry set and list live: their expiry takes nothing below 0.
    await fx.admin.del(`${prefix}jb:t`);
    expect(await a.readTenantBytes('t')).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(await a.readTenantBytes('t')).toBe(0);
    expect(await fx.admin.hget(`${prefix}jb:t`, 'total')).toBeNull();
    // The expiry set lost instead: its counts could never be dropped, so they go at once rather than block for good.
    expect(await a.open('t:s2', record())).toBe('ok');
    expect(await a.append('t:s2', 0, step(1000), pin)).toBe('ok');
    await fx.admin.del(`${prefix}jx:t`);
    expect(await a.readTenantBytes('t')).toBe(0);
    expect(await fx.admin.exists(`${prefix}jb:t`)).toBe(0);
  });

  // The ms a list expires, Redis still holds it (a key is gone only once the clock is past its deadline): a count
  // dropped in that ms would let the tenant write past its budget. Read then look, tightly, across 24 deadlines
  // (a list and a record each).
  it('never drop a list or a record while Redis still holds it: at every read, the keys still there are counted', async () => {
    const { prefix, js } = await journals(['a'], { budget: 1_000_000, ttlMs: 300 });
    const a = js[0]!;
    const ids = Array.from({ length: 24 }, (_, i) => `t:s${i}`);
    for (const id of ids) {
      expect(await a.open(id, record())).toBe('ok');
      expect(await a.append(id, 0, step(10), pin)).toBe('ok');
    }
    const lists = ids.map((id) => `${prefix}sl:${id}`);
    const records = ids.map((id) => `${prefix}sm:${id}`);
    let reads = 0;
    for (const deadline = Date.now() + 2000; Date.now() < deadline; reads++) {
      const counted = await a.readTenantBytes('t');
      const held = (await fx.admin.exists(...lists)) * 10 + (await fx.admin.exists(...records)) * REC;
      expect(counted, `read ${reads}: ${counted} bytes counted, ${held} held`).toBeGreaterThanOrEqual(held);
      if (held === 0 && counted === 0) break;
    }
    expect(await a.readTenantBytes('t')).toBe(0);
  });
});
