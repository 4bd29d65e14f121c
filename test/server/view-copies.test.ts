/**
 * The read-only copies a replica keeps for `GET /v1/sessions/:id` of sessions another replica holds
 * (src/server/session-replay.ts, `ViewCopies`): one tenant reading more sessions than there are copies evicts
 * its own oldest, never another tenant's copy, so the other tenant's next read replays nothing again; reads of one
 * session that come together share one replay.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { resolveOptions } from '../../src/server/options.js';
import { REPLAYS_PER_TENANT, ViewCopies } from '../../src/server/session-replay.js';
import type { SessionHead, SessionJournal } from '../../src/store/session-journal.js';

const STEPS = 20;
const step = (i: number) => ({ t: i, tool: 'bash', action: { kind: 'shell', command: `cat src/a${i}.py` }, observation: `line ${i}` });
const frames = Array.from({ length: STEPS }, (_, seq) => Buffer.from(JSON.stringify({ type: 'step', seq, step: step(seq) })));

function head(tenant: string): SessionHead {
  return {
    record: { task: 'view-copies', format: 'steplens', learn: false, policy: DEFAULT_POLICY, reference: { kind: 'prior', prior: UNIFORM_PRIOR }, createdAt: 1, tenant, role: 'agent' },
    length: STEPS,
  };
}

describe('the view copies of sessions held by another replica', () => {
  it("are evicted from the tenant holding the most: another tenant's copy stays, and its next read replays nothing", async () => {
    const read: string[] = [];
    const journal = {
      frames: (id: string, from: number, count: number) => {
        read.push(id);
        return Promise.resolve(frames.slice(from, from + count));
      },
      resolve: () => Promise.resolve({ kind: 'prior', prior: UNIFORM_PRIOR }),
    } as unknown as SessionJournal;
    const copies = new ViewCopies({ journal, analyzers: defaultAnalyzers(), options: resolveOptions({}) }, 4);

    const first = await copies.view('alice:a1', 'a1', head('alice'));
    // Tenant mallory reads more of its own sessions than there are copies, twice over.
    for (let round = 0; round < 2; round++) for (let i = 0; i < 6; i++) await copies.view(`mallory:m${i}`, `m${i}`, head('mallory'));
    read.length = 0;
    const again = await copies.view('alice:a1', 'a1', head('alice'));
    // Before, mallory's reads evicted alice's copy first (the oldest of all): her read was a whole replay again.
    expect(read).toEqual([]);
    expect(again).toBe(first);
    expect(again.lastSeq).toBe(STEPS - 1);

    // With one tenant the oldest copy goes, as before: a1 stays only while younger than 4 others.
    read.length = 0;
    for (let i = 0; i < 4; i++) await copies.view(`alice:b${i}`, `b${i}`, head('alice'));
    await copies.view('alice:a1', 'a1', head('alice'));
    expect(read.filter((id) => id === 'alice:a1').length).toBeGreaterThan(0);
  });

  it("are built at most REPLAYS_PER_TENANT at once per tenant, the tenant's others waiting, another tenant's not", async () => {
    const read: string[] = [];
    const journal = {
      frames: async (id: string, from: number, count: number) => {
        read.push(id);
        await new Promise((resolve) => setImmediate(resolve));
        return frames.slice(from, from + count);
      },
      resolve: () => Promise.resolve({ kind: 'prior', prior: UNIFORM_PRIOR }),
    } as unknown as SessionJournal;
    const copies = new ViewCopies({ journal, analyzers: defaultAnalyzers(), options: resolveOptions({}) }, 16);
    const ids = Array.from({ length: 6 }, (_, i) => `mallory:m${i}`);
    const mallory = ids.map((key) => copies.view(key, key.slice(8), head('mallory')));
    await new Promise((resolve) => setImmediate(resolve));
    const alice = copies.view('alice:a1', 'a1', head('alice'));
    await Promise.all([...mallory, alice]);
    // Each build's reads, first to last: no more than REPLAYS_PER_TENANT of mallory's overlap (before: all 6 did).
    const spans = ids.map((id) => [read.indexOf(id), read.lastIndexOf(id)] as const);
    for (const [start] of spans) expect(spans.filter(([a, z]) => a <= start && start <= z).length).toBeLessThanOrEqual(REPLAYS_PER_TENANT);
    expect(REPLAYS_PER_TENANT).toBeLessThan(ids.length);
    // Alice's build did not wait for mallory's queue: it began before mallory's last one.
    expect(read.indexOf('alice:a1')).toBeLessThan(read.indexOf(ids.at(-1)!));
  });

  it('of one session read at once are one replay, shared by every read', async () => {
    let pages = 0;
    const journal = {
      frames: (_id: string, from: number, count: number) => {
        pages += 1;
        return Promise.resolve(frames.slice(from, from + count));
      },
      resolve: () => Promise.resolve({ kind: 'prior', prior: UNIFORM_PRIOR }),
    } as unknown as SessionJournal;
    const copies = new ViewCopies({ journal, analyzers: defaultAnalyzers(), options: resolveOptions({}) }, 4);
    const alone = await new ViewCopies({ journal, analyzers: defaultAnalyzers(), options: resolveOptions({}) }, 4).view('bob:s', 's', head('bob'));
    const onePlay = pages;
    pages = 0;
    const views = await Promise.all(Array.from({ length: 8 }, () => copies.view('bob:s', 's', head('bob'))));
    // Before, each of the 8 reads replayed the session from its first step: 8 times the pages.
    expect(pages).toBe(onePlay);
    expect(new Set(views).size).toBe(1);
    expect(views[0]!.report()).toEqual(alone.report());
    // Once built, a read gets the kept copy with no page read.
    expect(await copies.view('bob:s', 's', head('bob'))).toBe(views[0]);
    expect(pages).toBe(onePlay);
  });

  it('that failed to build fail every read that shared them, and the next read builds again', async () => {
    let down = true;
    const journal = {
      frames: (_id: string, from: number, count: number) => (down ? Promise.reject(new Error('Redis did not answer')) : Promise.resolve(frames.slice(from, from + count))),
      resolve: () => Promise.resolve({ kind: 'prior', prior: UNIFORM_PRIOR }),
    } as unknown as SessionJournal;
    const copies = new ViewCopies({ journal, analyzers: defaultAnalyzers(), options: resolveOptions({}) }, 4);
    const failed = await Promise.allSettled([copies.view('bob:s', 's', head('bob')), copies.view('bob:s', 's', head('bob'))]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    down = false;
    expect((await copies.view('bob:s', 's', head('bob'))).lastSeq).toBe(STEPS - 1);
  });
});
