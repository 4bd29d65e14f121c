/**
 * `journalBytesPerTenant` on replicas sharing a real redis-server (the review's finding: one tenant's legal
 * steps filled a Redis at `maxmemory`, and every tenant got `unavailable` for 35 minutes; T44: so did one
 * stream starting and ending sessions, whose records and finals were not counted). A step or a start that would
 * take its tenant past the budget is refused `quota_exceeded` on every replica, nothing accepted is lost, the
 * session (or stream) goes on once its tenant's bytes come back (an ended session dropped after its resume
 * window, an idle one expired), and the other tenant never notices.
 */
import { pino } from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Step } from '../../src/core/types.js';
import type { AppOptions } from '../../src/server/options.js';
import { ASTROID, Client, readSteps, type Frame, type Running } from '../server/helpers.js';
import { eventually, freshPrefix, startReplica, useRedis } from './replicas.js';

const auth = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
const TOKENS: AppOptions['tokens'] = [
  { token: 'alice-token', tenant: 'alice' },
  { token: 'mallory-token', tenant: 'mallory' },
  { token: 'prom-token', role: 'metrics' },
];
// Its own server: the last test sets its maxmemory.
const fx = useRedis();
const { running, clients } = fx;
let steps: Step[];

beforeAll(async () => {
  steps = await readSteps(ASTROID.fail);
});

async function replica(prefix: string, name: string, options: AppOptions): Promise<Running> {
  const r = await startReplica(fx.redis, prefix, name, { tokens: TOKENS, ...options });
  running.push(r);
  return r;
}

async function client(r: Running, tenant: 'alice' | 'mallory'): Promise<Client> {
  const c = await Client.connect(r.wsUrl, auth(`${tenant}-token`));
  clients.push(c);
  return c;
}

/** Sessions `r` rebuilt from the journal (its metrics). */
async function rebuilt(r: Running): Promise<number> {
  const text = await (await fetch(`${r.url}/metrics`, { headers: auth('prom-token') })).text();
  return Number(/^steplens_sessions_rebuilt_total (\d+)/m.exec(text)?.[1]);
}

const frame = (session: string, seq: number): string => JSON.stringify({ type: 'step', session, seq, step: steps[seq] });
const size = (frames: string[]): number => frames.reduce((n, f) => n + Buffer.byteLength(f), 0);

/**
 * The bytes of a mallory session's record of ASTROID's task in Redis, counted from its start: read on a replica
 * of its own (every such record is as long: the id is not in it, the reference pinned is the seed's first version).
 */
async function recordBytes(): Promise<number> {
  const prefix = freshPrefix('record');
  const c = await client(await replica(prefix, 'record', {}), 'mallory');
  expect(await start(c, 'probe')).toMatchObject({ type: 'started' });
  return fx.admin.hstrlen(`${prefix}sm:mallory:probe`, 'rec');
}

async function start(c: Client, session: string): Promise<Frame> {
  c.send({ type: 'start', session, task: ASTROID.task });
  return c.next((f) => f.session === session && (f.type === 'started' || f.type === 'error'));
}

/** Sends seq `seq` of `session` and answers its score or error. */
async function send(c: Client, session: string, seq: number, text = frame(session, seq)): Promise<Frame> {
  c.send(text);
  return c.next((f) => f.session === session && f.seq === seq && (f.type === 'score' || f.type === 'error'));
}

/** Sends seq `seq` again and again until it is scored (or 10 s passed); the last answer. */
const sendUntilScored = (c: Client, session: string, seq: number): Promise<Frame> =>
  eventually(
    () => send(c, session, seq),
    (f) => f.type === 'score',
  );

describe('a tenant journal budget', () => {
  it('refuses the step past it on any replica and lets the other tenant go on; the session keeps its steps, resumes elsewhere, and goes on once an ended session left', async () => {
    const prefix = freshPrefix('budget');
    // Mallory's two records, and five steps of m1's and two of m2's.
    const budget = 2 * (await recordBytes()) + size([0, 1].map((seq) => frame('m2', seq))) + size([0, 1, 2, 3, 4].map((seq) => frame('m1', seq)));
    const options: AppOptions = { resumeWindowMs: 500, limits: { journalBytesPerTenant: budget } };
    const a = await replica(prefix, 'budget-a', options);
    const b = await replica(prefix, 'budget-b', options);
    const other = await client(a, 'mallory');
    expect(await start(other, 'm2')).toMatchObject({ type: 'started' });
    for (const seq of [0, 1]) expect(await send(other, 'm2', seq)).toMatchObject({ type: 'score' });

    const m = await client(a, 'mallory');
    expect(await start(m, 'm1')).toMatchObject({ type: 'started' });
    for (let seq = 0; seq < 6; seq++) m.send(frame('m1', seq));
    await m.sync();
    expect(m.frames.filter((f) => f.type === 'score').map((f) => f.seq)).toEqual([0, 1, 2, 3, 4]);
    const refused = m.frames.find((f) => f.type === 'error');
    expect(refused).toMatchObject({ code: 'quota_exceeded', session: 'm1', seq: 5 });
    expect(refused?.message).toMatch(new RegExp(`tenant mallory's sessions keep \\d+ bytes in Redis \\(records, finals and steps\\).*past journalBytesPerTenant \\(${budget} bytes\\)`));
    expect(await fx.admin.llen(`${prefix}sl:mallory:m1`)).toBe(5);
    // Refused before it was scored: the session was not dropped to be rebuilt.
    expect(await rebuilt(a)).toBe(0);

    // The other tenant, on the same replica, within its own budget.
    const alice = await client(a, 'alice');
    expect(await start(alice, 'a1')).toMatchObject({ type: 'started' });
    for (let seq = 0; seq < 8; seq++) expect(await send(alice, 'a1', seq)).toMatchObject({ type: 'score', seq });

    // Resumed on the other replica with its 5 steps; the count there is the same (m2 lives on the first).
    m.ws.terminate();
    const moved = await client(b, 'mallory');
    moved.send({ type: 'resume', session: 'm1', after: 4 });
    expect(await moved.nextOf('resumed', 'm1')).toMatchObject({ last: 4 });
    expect(await send(moved, 'm1', 5)).toMatchObject({ type: 'error', code: 'quota_exceeded' });

    // m2 ends: counted until its resume window is over, then m1 goes on where it stopped.
    other.send({ type: 'end', session: 'm2' });
    await other.nextOf('final', 'm2');
    expect(await sendUntilScored(moved, 'm1', 5)).toMatchObject({ type: 'score', seq: 5 });
    expect(await send(moved, 'm1', 6)).toMatchObject({ type: 'score', seq: 6 });
    expect(await fx.admin.llen(`${prefix}sl:mallory:m1`)).toBe(7);
  });

  it('refuses a step another replica took the room of after it was scored: the session is rebuilt and scores as if nothing happened', async () => {
    const prefix = freshPrefix('race');
    const records = 2 * (await recordBytes());
    const budget = records + size([0, 1].map((seq) => frame('r1', seq))) + size([0, 1].map((seq) => frame('r2', seq)));
    // The first replica's last count (both records, r1's two steps) leaves room for r1's third step; the second replica took it meanwhile.
    expect(records + size([0, 1, 2].map((seq) => frame('r1', seq)))).toBeLessThanOrEqual(budget);
    const options: AppOptions = { resumeWindowMs: 500, limits: { journalBytesPerTenant: budget } };
    const a = await replica(prefix, 'race-a', options);
    const b = await replica(prefix, 'race-b', options);
    const onA = await client(a, 'mallory');
    const onB = await client(b, 'mallory');
    expect(await start(onA, 'r1')).toMatchObject({ type: 'started' });
    expect(await start(onB, 'r2')).toMatchObject({ type: 'started' });
    for (const seq of [0, 1]) expect(await send(onA, 'r1', seq)).toMatchObject({ type: 'score' });
    for (const seq of [0, 1]) expect(await send(onB, 'r2', seq)).toMatchObject({ type: 'score' });
    expect(await send(onA, 'r1', 2)).toMatchObject({ type: 'error', code: 'quota_exceeded', message: expect.stringContaining(`(${budget} bytes)`) as unknown });
    expect(await fx.admin.llen(`${prefix}sl:mallory:r1`)).toBe(2);
    expect(await rebuilt(a)).toBe(0);

    onB.send({ type: 'end', session: 'r2' });
    await onB.nextOf('final', 'r2');
    const scored = await sendUntilScored(onA, 'r1', 2);
    expect(await rebuilt(a)).toBe(1);
    // The same steps in a session nobody refused score the same.
    const alice = await client(a, 'alice');
    expect(await start(alice, 'same')).toMatchObject({ type: 'started' });
    for (const seq of [0, 1]) await send(alice, 'same', seq);
    const { session: _s, ...expected } = await send(alice, 'same', 2);
    expect(scored).toMatchObject(expected);
  });

  it("gives an idle session's bytes back when its keys expire, though no replica ends it", async () => {
    const prefix = freshPrefix('expiry');
    // Room for e1's record and steps, and e2's record: not for e2's first step while e1 is kept.
    const budget = 2 * (await recordBytes()) + size([0, 1, 2].map((seq) => frame('e1', seq)));
    // Its keys expire 2.7 s after its last step (idle timeout + resume window) once its replica is gone.
    const gone = await startReplica(fx.redis, prefix, 'expiry-gone', { tokens: TOKENS, idleTimeoutMs: 2500, resumeWindowMs: 200, limits: { journalBytesPerTenant: budget } });
    try {
      const c = await Client.connect(gone.wsUrl, auth('mallory-token'));
      clients.push(c);
      expect(await start(c, 'e1')).toMatchObject({ type: 'started' });
      for (const seq of [0, 1, 2]) expect(await send(c, 'e1', seq)).toMatchObject({ type: 'score' });
    } finally {
      await gone.app.close(); // hands the lease back: the session is not ended
    }

    const a = await replica(prefix, 'expiry-a', { limits: { journalBytesPerTenant: budget } });
    const m = await client(a, 'mallory');
    expect(await start(m, 'e2')).toMatchObject({ type: 'started' });
    expect(await send(m, 'e2', 0)).toMatchObject({ type: 'error', code: 'quota_exceeded' });
    expect(await sendUntilScored(m, 'e2', 0)).toMatchObject({ type: 'score', seq: 0 });
    expect(await fx.admin.exists(`${prefix}sl:mallory:e1`)).toBe(0);
  });

  it("refuses a stream starting and ending sessions at its tenant's budget (records and finals count): the other tenant's steps go on, and the stream's starts once the ended sessions left", async () => {
    const prefix = freshPrefix('churn');
    // About a dozen sessions' records and finals (a session with no step keeps ~1 KB: its record and final).
    const budget = 16_000;
    const a = await replica(prefix, 'churn-a', { resumeWindowMs: 4000, limits: { journalBytesPerTenant: budget } });
    const m = await client(a, 'mallory');
    let refused: Frame | undefined;
    let n = 0;
    for (; n < 100 && refused === undefined; n++) {
      const answer = await start(m, `c${n}`);
      if (answer.type === 'error') refused = answer;
      else {
        m.send({ type: 'end', session: `c${n}` });
        await m.nextOf('final', `c${n}`);
      }
    }
    const last = `c${n - 1}`;
    expect(refused).toMatchObject({ code: 'quota_exceeded', session: last });
    const message = new RegExp(
      `^session ${last} not started: tenant mallory's sessions keep (\\d+) bytes in Redis \\(records, finals and steps\\), and its record would take them past journalBytesPerTenant \\(${budget} bytes\\)`,
    );
    const held = Number(message.exec(String(refused?.message))?.[1]);
    // At the budget: a start is refused when its record does not fit, and a final is never refused (the last one may pass it).
    expect(held).toBeGreaterThan(budget - 2000);
    expect(held).toBeLessThanOrEqual(budget + 1000);
    expect(Number(await fx.admin.hget(`${prefix}jb:mallory`, 'total'))).toBe(held);
    // Nothing of the refused start was written; the sessions accepted before keep their finals (the latest one: the
    // first may have left already, its resume window over, when a loaded machine took 4 s for the loop).
    expect(await fx.admin.exists(`${prefix}sm:mallory:${last}`, `${prefix}sk:mallory:${last}`)).toBe(0);
    expect(await fx.admin.hexists(`${prefix}sm:mallory:c${n - 2}`, 'final')).toBe(1);

    const alice = await client(a, 'alice');
    expect(await start(alice, 'a1')).toMatchObject({ type: 'started' });
    for (let seq = 0; seq < 5; seq++) expect(await send(alice, 'a1', seq)).toMatchObject({ type: 'score', seq });
    let later = 0;
    expect(
      await eventually(
        () => start(m, `later${later++}`),
        (f) => f.type === 'started',
      ),
    ).toMatchObject({ type: 'started' });
  });

  it("warns at start when Redis' maxmemory is below the budget times the tenants", async () => {
    const warnings = async (limit: number): Promise<string[]> => {
      const lines: string[] = [];
      const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
      await replica(freshPrefix('sized'), 'sized-a', { logger, limits: { journalBytesPerTenant: limit } });
      return lines.map((l) => String((JSON.parse(l) as { msg: unknown }).msg));
    };
    await fx.admin.config('SET', 'maxmemory', String(256 * 1024 * 1024));
    try {
      // Three tenants (the token file's) at the default 512 MiB: 1.5 GiB of steps for a 256 MiB Redis.
      expect(await warnings(512 * 1024 * 1024)).toEqual([expect.stringContaining("Redis' maxmemory is less than journalBytesPerTenant times the tenants")]);
      expect(await warnings(64 * 1024 * 1024)).toEqual([]);
    } finally {
      await fx.admin.config('SET', 'maxmemory', '0');
    }
  });

  it("keeps a Redis at maxmemory (noeviction) from filling up with one tenant's steps: the other tenant goes on", async () => {
    const prefix = freshPrefix('fill');
    const a = await replica(prefix, 'fill-a', { limits: { journalBytesPerTenant: 2 * 1024 * 1024 } });
    const used = Number(/used_memory:(\d+)/.exec(await fx.admin.info('memory'))![1]);
    await fx.admin.config('SET', 'maxmemory-policy', 'noeviction');
    await fx.admin.config('SET', 'maxmemory', String(used + 8 * 1024 * 1024));
    try {
      // Ordinary, legal steps of 100 KB (the review's were 0.9 MB): 8 MB would fill Redis.
      const observation = 'some ordinary build output line\n'.repeat(3200);
      const big = (session: string, seq: number): string =>
        JSON.stringify({ type: 'step', session, seq, step: { t: seq, tool: 'bash', action: { kind: 'shell', command: `make target${seq}` }, observation, exitCode: 0 } });
      const m = await client(a, 'mallory');
      const codes: string[] = [];
      let session = 0;
      let seq = 0;
      expect(await start(m, 'fill0')).toMatchObject({ type: 'started' });
      for (let i = 0; i < 120 && codes.length < 3; i++) {
        const answer = await send(m, `fill${session}`, seq, big(`fill${session}`, seq));
        if (answer.type === 'score') seq++;
        else {
          codes.push(String(answer.code));
          if (answer.code !== 'quota_exceeded') break;
          // Refused: a new session does not help.
          seq = 0;
          expect(await start(m, `fill${++session}`)).toMatchObject({ type: 'started' });
        }
      }
      expect(codes).toEqual(['quota_exceeded', 'quota_exceeded', 'quota_exceeded']);
      const alice = await client(a, 'alice');
      expect(await start(alice, 'a1')).toMatchObject({ type: 'started' });
      for (let s = 0; s < 5; s++) expect(await send(alice, 'a1', s)).toMatchObject({ type: 'score', seq: s });
      expect((await fetch(`${a.url}/readyz`)).status).toBe(200);
    } finally {
      await fx.admin.config('SET', 'maxmemory', '0');
    }
  });
});
