/**
 * T77: the `next` of a `GET /v1/sessions` page says nothing of other tenants' sessions. It was the ordinal of the
 * page's last session, and ordinals count every tenant's: tenant B read from its own cursors how many sessions A
 * started between two of its own.
 */
import { describe, expect, it } from 'vitest';
import type { SessionListResponse } from '../../src/protocol/view-bodies.js';
import { ALL_TENANTS, PageCursors } from '../../src/server/page-cursor.js';
import { ALICE_BOB_OPS, bearer, Client, useApp } from './helpers.js';

describe('PageCursors', () => {
  it('reads back what it gave, in its scope only, and nothing else', () => {
    const cursors = new PageCursors();
    for (const ordinal of [0, 1, 37, 2 ** 40, Number.MAX_SAFE_INTEGER]) {
      const c = cursors.encode(ordinal, 'bob');
      expect(c).toMatch(/^[0-9a-f]{32}$/);
      expect(cursors.decode(c, 'bob')).toBe(ordinal);
      expect(cursors.decode(c, 'alice')).toBeUndefined();
      expect(cursors.decode(c, ALL_TENANTS)).toBeUndefined();
      // Another replica, or this one after a restart.
      expect(new PageCursors().decode(c, 'bob')).toBeUndefined();
    }
    for (const bad of ['', '0', '1', '-1', '37', 'x'.repeat(32), 'A'.repeat(32), '0'.repeat(31), '0'.repeat(33)]) expect(cursors.decode(bad, 'bob'), bad).toBeUndefined();
  });
});

describe('GET /v1/sessions with two tenants', () => {
  const server = useApp({ tokens: ALICE_BOB_OPS });

  async function page(token: string, q: string): Promise<{ status: number; body: SessionListResponse }> {
    const res = await fetch(`${server().url}/v1/sessions?${q}`, { headers: bearer(token) });
    return { status: res.status, body: (await res.json()) as SessionListResponse };
  }

  it("walks B's own sessions with cursors that do not count A's", async () => {
    const a = await Client.connect(server().wsUrl, bearer('alice'));
    const b = await Client.connect(server().wsUrl, bearer('bob'));
    const start = async (c: Client, id: string) => {
      c.send({ type: 'start', session: id, task: 't' });
      await c.nextOf('started', id);
    };
    for (const id of ['b1', 'b2']) await start(b, id);
    for (let i = 0; i < 37; i++) await start(a, `a${i}`);
    for (const id of ['b3', 'b4']) await start(b, id);

    const seen: string[] = [];
    const cursors: string[] = [];
    let after: string | undefined;
    for (;;) {
      const p = await page('bob', `limit=1${after !== undefined ? `&after=${after}` : ''}`);
      expect(p.status).toBe(200);
      seen.push(...p.body.sessions.map((s) => s.session));
      if (p.body.next === undefined) break;
      cursors.push(p.body.next);
      after = p.body.next;
    }
    expect(seen).toEqual(['b1', 'b2', 'b3', 'b4']);
    // On the code before T77 the cursors are "1", "2", "40": A's 37 sessions read from the gap.
    for (const c of cursors) expect(c).toMatch(/^[0-9a-f]{32}$/);
    // Nor may B walk by ordinals of its own choosing (a search for its own sessions' ordinals), nor with A's cursor.
    const aPage = await page('alice', 'limit=1');
    for (const q of ['after=2', 'after=0', `after=${aPage.body.next!}`]) {
      const p = await page('bob', `limit=1&${q}`);
      expect(p.status, q).toBe(400);
    }
    // An operator's pages (every tenant's) walk with cursors of their own scope.
    const ops = await page('op', 'limit=20');
    expect(ops.body.sessions).toHaveLength(20);
    expect((await page('op', `limit=1000&after=${ops.body.next!}`)).body.sessions).toHaveLength(21);
    expect((await page('op', `limit=20&after=${cursors[0]!}`)).status).toBe(400);
    a.close();
    b.close();
  });
});
