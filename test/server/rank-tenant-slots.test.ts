/**
 * `POST /v1/rank` calls naming sessions read them on the main thread a session a turn, each call holding what it has
 * read (states, edit locations) until it answers. Nothing bounded how many calls of one tenant read side by side: bob's
 * 240 calls at once, each naming his 64 sessions of 2,000 steps, took the server from 185 MB to 1.23 GB and alice's
 * pings to a p99 of 2.3 s (T121). Now a tenant's calls read at most `RANKS_PER_TENANT` at a time, and another
 * tenant's call is not queued behind them.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RANKS_PER_TENANT } from '../../src/server/rank-route.js';
import { Session } from '../../src/server/session.js';
import { ASTROID, Client, readSteps, removeDir, startApp, tempDir, type Running } from './helpers.js';

const CALLS = 8;
const PER_CALL = 3;

describe("POST /v1/rank: one tenant's calls reading sessions at once", () => {
  let dir: string;
  let srv: Running;
  beforeAll(async () => {
    dir = await tempDir();
    srv = await startApp({
      dataDir: dir,
      scoringWorkers: 0,
      tokens: [
        { token: 'bob', tenant: 'bob' },
        { token: 'alice', tenant: 'alice' },
      ],
    });
  });
  afterAll(async () => {
    await srv.app.close();
    await removeDir(dir);
  });

  const rank = (token: string, sessions: string[]): Promise<Response> =>
    fetch(`${srv.url}/v1/rank`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ runs: sessions.map((session) => ({ session })) }),
    });

  it('reads at most RANKS_PER_TENANT calls of a tenant at a time, another tenant not behind them', async () => {
    const step = (await readSteps(ASTROID.passA))[0]!;
    const open = async (token: string, ids: string[]): Promise<Client> => {
      const c = await Client.connect(srv.wsUrl, { authorization: `Bearer ${token}` });
      for (const id of ids) {
        c.send({ type: 'start', session: id, task: ASTROID.task });
        await c.nextOf('started', id);
        c.send({ type: 'step', session: id, seq: 0, step });
        await c.nextOf('score', id);
      }
      return c;
    };
    const names = (k: number): string[] => Array.from({ length: PER_CALL }, (_, i) => `c${k}-s${i}`);
    const bob = await open('bob', Array.from({ length: CALLS }, (_, k) => names(k)).flat());
    const alice = await open('alice', ['a-s0', 'a-s1']);

    // Which call each session read belongs to (its id names it), in the order read.
    const watched = vi.spyOn(Session.prototype, 'headline');
    try {
      const bobs = Array.from({ length: CALLS }, (_, k) => rank('bob', names(k)));
      const alices = rank('alice', ['a-s0', 'a-s1']);
      const answers = await Promise.all([...bobs, alices]);
      expect(answers.map((r) => r.status)).toEqual(Array.from({ length: CALLS + 1 }, () => 200));

      const reads = watched.mock.contexts.map((s) => (s as Session).id);
      // Calls of bob reading at once: begun (a session of theirs read) and not yet done (not all of them read).
      const seen = new Map<string, number>();
      let reading = 0;
      let most = 0;
      for (const id of reads) {
        const call = id.split('-')[0]!;
        const n = (seen.get(call) ?? 0) + 1;
        seen.set(call, n);
        if (call === 'a') continue;
        if (n === 1) reading += 1;
        if (n === PER_CALL) reading -= 1;
        most = Math.max(most, reading);
      }
      expect(reads).toHaveLength(CALLS * PER_CALL + 2);
      expect(most).toBeLessThanOrEqual(RANKS_PER_TENANT);
      // Alice's call read before bob's last one: not queued behind all of his.
      const bobsLast = reads.findLastIndex((id) => !id.startsWith('a-'));
      expect(reads.findIndex((id) => id.startsWith('a-'))).toBeLessThan(bobsLast);
    } finally {
      watched.mockRestore();
      bob.close();
      alice.close();
    }
  }, 60_000);
});
