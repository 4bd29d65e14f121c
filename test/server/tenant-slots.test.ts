/**
 * Slots and the live feed under a greedy tenant: a tenant holds at most `sessionsPerTenant` open sessions
 * (detached ones included; past it `quota_exceeded`); once the server is full, sessions nobody is attached
 * to give way to a new one (the oldest detached of the tenant holding the most ends `not_resumed`); the
 * session list is paged; live viewers share one snapshot and one encoding of each event; a `/v1/live` ticket is
 * refused as the feed would refuse it (so the web view can read why).
 */
import { EventEmitter } from 'node:events';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import type { SessionListResponse } from '../../src/protocol/view-bodies.js';
import { LiveFeed } from '../../src/server/live-feed.js';
import { createMetrics } from '../../src/server/metrics.js';
import { resolveOptions } from '../../src/server/options.js';
import { LOCAL_PRINCIPAL } from '../../src/server/principal.js';
import { bearer, Client, tenantTokens, useApp, useApps } from './helpers.js';

const STEP = { tool: 'bash', action: { kind: 'shell', command: 'ls' } };
const server = useApp({ limits: { sessionsPerTenant: 3, totalSessions: 5 }, tokens: tenantTokens(['greedy', 'other']) });
/** Apps of a test's own (the live viewers' limits). */
const apps = useApps();

async function start(c: Client, id: string): Promise<Record<string, unknown>> {
  c.send({ type: 'start', session: id, task: 't' });
  return c.next((f) => f.session === id && (f.type === 'started' || f.type === 'error'));
}

describe("a tenant's default share of totalSessions (T78)", () => {
  const small = useApp({ limits: { totalSessions: 8 }, tokens: tenantTokens(['greedy', 'other']) });
  it('is a quarter of the server, at most 1,024: a server made smaller is not filled by one tenant', async () => {
    const two = (limits: Record<string, number>) => resolveOptions({ tokens: tenantTokens(['x', 'y']), limits }).limits.sessionsPerTenant;
    expect(two({})).toBe(1024);
    expect(two({ totalSessions: 256 })).toBe(64);
    expect(two({ totalSessions: 100_000 })).toBe(1024);
    expect(two({ totalSessions: 256, sessionsPerTenant: 200 })).toBe(200);
    expect(resolveOptions({ limits: { totalSessions: 256 } }).limits.sessionsPerTenant).toBe(256);
    const greedy = await Client.connect(small().wsUrl, bearer('greedy'));
    const answers = [];
    for (const id of ['g1', 'g2', 'g3', 'g4']) answers.push(await start(greedy, id));
    // Before: all 8 slots were greedy's to take (its quota, 1,024, above the server's), and other's start got `overloaded`.
    expect(answers.map((a) => a.type)).toEqual(['started', 'started', 'error', 'error']);
    expect(answers[2]).toMatchObject({ code: 'quota_exceeded' });
    const other = await Client.connect(small().wsUrl, bearer('other'));
    for (const id of ['o1', 'o2']) expect((await start(other, id)).type).toBe('started');
    greedy.close();
    other.close();
  });
});

describe('sessions per tenant, and detached sessions under pressure', () => {
  it('caps a tenant, and frees the oldest detached session when the server is full', async () => {
    const greedy = await Client.connect(server().wsUrl, bearer('greedy'));
    for (const id of ['g1', 'g2', 'g3']) expect((await start(greedy, id)).type).toBe('started');
    expect(await start(greedy, 'g4')).toMatchObject({ type: 'error', code: 'quota_exceeded' });
    const other = await Client.connect(server().wsUrl, bearer('other'));
    for (const id of ['o1', 'o2']) expect((await start(other, id)).type).toBe('started');
    // Full (5), and every session attached: refused.
    expect(await start(other, 'o3')).toMatchObject({ type: 'error', code: 'overloaded' });
    // The greedy client goes away: its sessions are detached, still counted, but they do not keep the slots.
    greedy.ws.terminate();
    await new Promise((r) => setTimeout(r, 100));
    expect((await start(other, 'o3')).type).toBe('started');
    // Its own quota still holds for the greedy tenant: 2 detached + 1 new = 3.
    const back = await Client.connect(server().wsUrl, bearer('greedy'));
    back.send({ type: 'resume', session: 'g1', after: -1 });
    expect(await back.nextOf('final', 'g1')).toMatchObject({ reason: 'not_resumed' });
    back.send({ type: 'resume', session: 'g2', after: -1 });
    expect(await back.nextOf('resumed', 'g2')).toMatchObject({ last: -1 });
    back.send({ type: 'step', session: 'g2', seq: 0, step: STEP });
    await back.nextOf('score', 'g2');
    back.close();
    other.close();
  });
});

describe('GET /v1/sessions', () => {
  it('pages: at most `limit` rows, `next` to read on, a bad limit refused', async () => {
    const c = await Client.connect(server().wsUrl, bearer('other'));
    const seen: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 10; page++) {
      const res = await fetch(`${server().url}/v1/sessions?limit=2${after !== undefined ? `&after=${after}` : ''}`, { headers: bearer('other') });
      const body = (await res.json()) as SessionListResponse;
      expect(body.sessions.length).toBeLessThanOrEqual(2);
      seen.push(...body.sessions.map((s) => s.session));
      after = body.next;
      if (after === undefined) break;
    }
    expect(seen).toEqual(['o1', 'o2', 'o3']);
    for (const q of ['limit=0', 'limit=1001', 'limit=x', 'after=-1']) {
      const res = await fetch(`${server().url}/v1/sessions?${q}`, { headers: bearer('other') });
      expect(res.status, q).toBe(400);
    }
    c.close();
  });
});

/** A `/v1/live` ticket asked for as `token`: its status and, when refused, the error (an EventSource reads no other answer). */
async function ticket(url: string, token: string, route = '/v1/live'): Promise<{ status: number; code?: string; message?: string }> {
  const res = await fetch(`${url}/v1/tickets`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ route }) });
  const body = (await res.json()) as { error?: { code: string; message: string } };
  return { status: res.status, ...(body.error ?? {}) };
}

/**
 * Opens `GET /v1/live` as `token`: a feed kept open (200), or the refusal's status and code. The open feed holds its
 * response: fetch (undici) closes the connection of a response garbage-collected with its body unread, which gave a
 * slot back mid-test when a collection ran (a 429 answered 200 on a slowed run).
 */
async function feed(url: string, token: string): Promise<{ status: number; code?: string; close: () => void; res?: Response }> {
  const ac = new AbortController();
  const res = await fetch(`${url}/v1/live`, { headers: bearer(token), signal: ac.signal });
  if (res.status === 200) return { status: 200, close: () => ac.abort(), res };
  const body = (await res.json()) as { error: { code: string } };
  return { status: res.status, code: body.error.code, close: () => undefined };
}

describe('live viewers of several tenants', () => {
  it('one tenant cannot hold every slot (its share: liveViewersPerTenant), and operators keep slots of their own', async () => {
    const app = await apps.start('viewers', { limits: { liveViewers: 16, liveViewersPerTenant: 8 }, tokens: tenantTokens(['greedy', 'other'], 'ops') });
    const open: Array<{ close: () => void }> = [];
    const keep = async (token: string): Promise<void> => {
      const f = await feed(app.url, token);
      expect(f.status, token).toBe(200);
      open.push(f);
    };
    try {
      for (let i = 0; i < 8; i++) await keep('greedy');
      expect(await feed(app.url, 'greedy')).toMatchObject({ status: 429, code: 'quota_exceeded' });
      // The ticket a page asks for first says so (the feed's own 429 is unreadable to EventSource); a /v1/stream one is not a viewer.
      expect(await ticket(app.url, 'greedy')).toMatchObject({ status: 429, code: 'quota_exceeded', message: expect.stringContaining('8 live viewers') as unknown });
      expect((await ticket(app.url, 'greedy', '/v1/stream')).status).toBe(200);
      expect((await ticket(app.url, 'other')).status).toBe(200);
      // Agents together leave 1 slot in 16 to operators.
      for (let i = 0; i < 7; i++) await keep('other');
      expect(await feed(app.url, 'other')).toMatchObject({ status: 503, code: 'overloaded' });
      expect(await ticket(app.url, 'other')).toMatchObject({ status: 503, code: 'overloaded' });
      expect((await ticket(app.url, 'ops')).status).toBe(200);
      await keep('ops');
      expect(await feed(app.url, 'ops')).toMatchObject({ status: 503, code: 'overloaded' });
      expect(await ticket(app.url, 'ops')).toMatchObject({ status: 503, code: 'overloaded' });
      // A slot given back is anyone's again.
      open.shift()!.close();
      await expect.poll(async () => /steplens_live_viewers (\d+)/.exec(await (await fetch(`${app.url}/metrics`, { headers: bearer('ops') })).text())?.[1]).toBe('15');
      await keep('other');
    } finally {
      for (const f of open) f.close();
      await app.app.close();
    }
  });

  it('a share defaults to a quarter of liveViewers (at least 2), every slot with one tenant', () => {
    const two = [
      { token: 'a', tenant: 'a' },
      { token: 'b', tenant: 'b' },
    ];
    expect(resolveOptions({ tokens: two }).limits.liveViewersPerTenant).toBe(16);
    expect(resolveOptions({ tokens: two, limits: { liveViewers: 6 } }).limits.liveViewersPerTenant).toBe(2);
    expect(resolveOptions({ tokens: two, limits: { liveViewers: 6, liveViewersPerTenant: 5 } }).limits.liveViewersPerTenant).toBe(5);
    expect(resolveOptions({ limits: { liveViewers: 6 } }).limits.liveViewersPerTenant).toBe(6);
  });
});

describe('live viewers', () => {
  it('share one snapshot and one encoding of each event (a stuck viewer holds references, not copies)', () => {
    const metrics = createMetrics({ cacheStats: () => ({ hits: 0, misses: 0, entries: 0, bytes: 0 }) });
    const feed = new LiveFeed({ maxViewers: 8, queueBytes: 1 << 20, config: DEFAULT_CONFIG, metrics, log: pino({ level: 'silent' }), heartbeatMs: 60_000 });
    const writes: Buffer[][] = [];
    const viewer = () => {
      const got: Buffer[] = [];
      writes.push(got);
      const res = Object.assign(new EventEmitter(), {
        writableLength: 0,
        destroyed: false,
        writableEnded: false,
        writeHead: () => res,
        write: (b: Buffer) => got.push(b),
        destroy: () => res,
        end: () => undefined,
      });
      return res;
    };
    for (let i = 0; i < 3; i++) feed.attach({ socket: undefined } as never, viewer() as never, LOCAL_PRINCIPAL, undefined);
    const session = {
      id: 's',
      tenant: 'default',
      key: 'default:s',
      totals: [1],
      recentStages: 'E',
      task: 't',
      format: 'steplens',
      ended: false,
      connection: 1,
      signals: [],
      length: 1,
      reference: { kind: 'prior' },
      startedAt: 0,
    };
    feed.started(session as never);
    feed.scored(
      session as never,
      [{ type: 'score', session: 's', seq: 0, t: 0, stage: 'E', score: { total: 1, struct: null, cov: null, coh: 0, temp: 0 }, reward: 1, tier: 'Lucky', reference: { kind: 'prior' } }] as never,
    );
    expect(writes.map((w) => w.length)).toEqual([3, 3, 3]);
    for (let k = 0; k < 3; k++) expect(new Set(writes.map((w) => w[k])).size, `event ${k}`).toBe(1);
    // A viewer connecting after the change gets a snapshot built again (it holds the new session), once.
    feed.attach({ socket: undefined } as never, viewer() as never, LOCAL_PRINCIPAL, undefined);
    feed.attach({ socket: undefined } as never, viewer() as never, LOCAL_PRINCIPAL, undefined);
    expect(writes[3]![0]).toBe(writes[4]![0]);
    expect(writes[3]![0]).not.toBe(writes[0]![0]);
    feed.close();
  });
});
