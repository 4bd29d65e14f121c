/**
 * A session's writes reach Redis in the order they were made, batched appends included: appends wait for the end of
 * the turn (one script for many steps), while `outcome` and `finish` went at once. Steps, outcome and end handled in
 * one turn after its socket reads (a turn's frames, or a connection's queue behind a resume) then sent FINISH before
 * the steps' APPEND batch, and Redis refused those steps (`ended`) though they had been scored (the red-team round
 * found it through the connection's queue handled a slice a turn). Reproduced here in the check phase of the loop.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { RedisLink } from '../../src/store/redis/link.js';
import { RedisReferenceStore } from '../../src/store/redis/reference-store.js';
import { RedisSessionJournal } from '../../src/store/redis/session-journal.js';
import type { SessionRecord } from '../../src/store/session-journal.js';
import { useRedis } from './replicas.js';

const fx = useRedis();
const links: RedisLink[] = [];
const pin = { kind: 'prior', prior: UNIFORM_PRIOR } as const;
const record = (): SessionRecord => ({ task: 't', format: 'steplens', learn: false, policy: DEFAULT_POLICY, reference: { kind: 'prior', prior: UNIFORM_PRIOR }, createdAt: Date.now() });

afterAll(async () => {
  for (const l of links) await l.close();
});

describe("a session's writes", () => {
  it('reach Redis in order: the appends batched in a turn before the outcome and the finish made after them', async () => {
    const link = new RedisLink({ url: fx.redis.url, prefix: 'jorder:' });
    links.push(link);
    const journal = new RedisSessionJournal({ link, store: await RedisReferenceStore.open({ link }), owner: 'a' });
    expect(await journal.open('t:s', record())).toBe(true);
    // In a setImmediate callback, as a turn's frames are handled: the batch goes at the next check phase.
    const results = await new Promise<string[]>((resolve) => {
      setImmediate(() => {
        const appends = Array.from({ length: 5 }, (_, seq) => journal.append('t:s', seq, `{"type":"step","seq":${seq}}`, pin));
        // The end waits for the last write made (the outcome), then finishes.
        void journal.outcome('t:s', false, pin).then(async (o) => {
          const f = await journal.finish('t:s', { type: 'final' }, pin);
          resolve([...(await Promise.all(appends)), o, f]);
        });
      });
    });
    expect(results).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
    expect((await journal.head('t:s'))?.length).toBe(5);
  });
});
