/**
 * Done means: a second tenant's token can neither see nor change anything of the first beyond what its role
 * allows. Tenant A (an agent) streams two real sessions (one ended and learned, one open); then every route
 * the server registers is walked with tenant B's agent token against A's data (the walk fails on a route it
 * does not know, so a new route must be added here), and A's data is checked unchanged and still A's. An
 * operator reads A's sessions with ?tenant=; a metrics token reads /metrics and nothing else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { SessionListResponse } from '../../src/protocol/view-bodies.js';
import type { PoliciesStatus } from '../../src/server/policy-status.js';
import { ASTROID, Client, readDoc, readEvents, removeDir, startApp, tempDir, type Running } from './helpers.js';
import { SseReader } from './sse.js';

const TOKENS = [
  { token: 'token-a', tenant: 'team-a' },
  { token: 'token-b', tenant: 'team-b' },
  { token: 'token-op', tenant: 'ops', role: 'operator' as const },
  { token: 'token-prom', role: 'metrics' as const },
];
const as = (token: string, more: Record<string, string> = {}): Record<string, string> => ({ authorization: `Bearer ${token}`, ...more });
const TASK = ASTROID.task;

/** Every route the app registers, as `METHOD /path` (read from fastify's route tree). */
export function registeredRoutes(app: FastifyInstance): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[└├]── (\S+) \(([^)]+)\)/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const parent = stack[depth - 1] ?? '';
    const full = `${parent}${parent.endsWith('/') || m[2]!.startsWith('/') ? '' : '/'}${m[2]!}`.replace('//', '/');
    stack[depth] = full;
    for (const method of m[3]!.split(', ')) if (method !== 'HEAD') out.push(`${method} ${full}`);
  }
  return [...new Set(out)].sort();
}

let dir: string;
let srv: Running;
let a: Client;
const steps = { open: 'a-open', ended: 'a-ended' };
let eventsA: unknown[];
/** A's next seq on its open session. */
let nextA = 10;

beforeAll(async () => {
  dir = await tempDir();
  srv = await startApp({ dataDir: dir, tokens: TOKENS });
  eventsA = await readEvents(ASTROID.passA);
  a = await Client.connect(srv.wsUrl, as('token-a'));
  a.send({ type: 'start', session: steps.ended, task: TASK, format: 'mini-swe-agent', agent: 'agent-a', model: 'model-a', learn: true });
  await a.nextOf('started', steps.ended);
  eventsA.forEach((step, seq) => a.send({ type: 'step', session: steps.ended, seq, step }));
  a.send({ type: 'outcome', session: steps.ended, passed: true });
  a.send({ type: 'end', session: steps.ended });
  // Several tenants: references are kept per tenant (reference-scope.ts), so A learns into its own PTA of the task.
  expect((await a.nextOf('final', steps.ended)).learned).toEqual({ version: 1, scope: 'tenant' });
  a.send({ type: 'start', session: steps.open, task: TASK, format: 'mini-swe-agent', agent: 'agent-a', model: 'model-a' });
  await a.nextOf('started', steps.open);
  eventsA.slice(0, 10).forEach((step, seq) => a.send({ type: 'step', session: steps.open, seq, step }));
  await a.nextOf('score', steps.open);
});

afterAll(async () => {
  a?.close();
  const closing = srv.app.close();
  srv.app.server.closeAllConnections();
  await closing;
  await removeDir(dir);
});

async function call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; text: string; code?: string }> {
  const res = await fetch(`${srv.url}${path}`, {
    method,
    headers: as(token, body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let code: string | undefined;
  try {
    code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
  } catch {
    // not JSON (a page, the metrics text)
  }
  return { status: res.status, text, ...(code !== undefined ? { code } : {}) };
}

/** What A's ids must never appear in. */
const leaks = (text: string): boolean => text.includes(steps.open) || text.includes(steps.ended) || text.includes('team-a') || text.includes('agent-a');

describe("tenant B's token against tenant A's data, on every route", () => {
  const walked = new Set<string>();
  const walk = (route: string, check: () => Promise<void>) =>
    it(route, async () => {
      walked.add(route);
      await check();
    });

  for (const id of [steps.open, steps.ended]) {
    walk(`GET /v1/sessions/:id (${id})`, async () => {
      for (const q of ['', '?tenant=team-a']) {
        const r = await call('GET', `/v1/sessions/${id}${q}`, 'token-b');
        const never = await call('GET', `/v1/sessions/never-started${q}`, 'token-b');
        // Indistinguishable from an id nobody ever used: same status, same code, same message but for the id.
        expect([r.status, r.code]).toEqual([404, 'unknown_session']);
        expect(r.text.replace(id, 'X')).toBe(never.text.replace('never-started', 'X'));
      }
    });
    for (const sub of ['steps', 'alignment']) {
      walk(`GET /v1/sessions/:id/${sub} (${id})`, async () => {
        for (const q of ['', '?tenant=team-a']) {
          const r = await call('GET', `/v1/sessions/${id}/${sub}${q}`, 'token-b');
          const never = await call('GET', `/v1/sessions/never-started/${sub}${q}`, 'token-b');
          expect([r.status, r.code]).toEqual([404, 'unknown_session']);
          expect(r.text.replace(id, 'X')).toBe(never.text.replace('never-started', 'X'));
        }
      });
    }
  }

  walk('POST /v1/rank', async () => {
    // Before B starts sessions of its own under A's ids (the stream walks below). A's session ids in B's group are as unknown as ids nobody used (same status, code and message but for the id).
    for (const id of [steps.open, steps.ended]) {
      const r = await call('POST', '/v1/rank', 'token-b', { task: TASK, runs: [{ session: id }, { trajectory: await readDoc(ASTROID.fail) }] });
      const never = await call('POST', '/v1/rank', 'token-b', { task: TASK, runs: [{ session: 'never-started' }, { trajectory: await readDoc(ASTROID.fail) }] });
      expect([r.status, r.code], r.text).toEqual([404, 'unknown_session']);
      expect(r.text.replace(id, 'X')).toBe(never.text.replace('never-started', 'X'));
    }
    const own = await call('POST', '/v1/rank', 'token-b', { task: TASK, runs: [{ trajectory: await readDoc(ASTROID.fail) }, { trajectory: await readDoc(ASTROID.fail) }] });
    expect(own.status).toBe(200);
    expect(leaks(own.text)).toBe(false);
  });
  walk('GET /v1/sessions', async () => {
    for (const q of ['', '?tenant=team-a', '?limit=1000']) {
      const r = await call('GET', `/v1/sessions${q}`, 'token-b');
      expect(r.status).toBe(200);
      expect(leaks(r.text), q).toBe(false);
    }
  });

  walk('GET /v1/live', async () => {
    for (const q of ['', '?tenant=team-a']) {
      const feed = await SseReader.open(`${srv.url}/v1/live${q}`, as('token-b'));
      expect(feed.status).toBe(200);
      const snap = await feed.next((e) => e.type === 'snapshot');
      expect(snap.sessions).toEqual([]);
      // A streams on: none of it reaches B's feed (a heartbeat-free wait on A's own frames).
      const seq = nextA++;
      a.send({ type: 'step', session: steps.open, seq, step: eventsA[seq] });
      await a.nextOf('score', steps.open);
      await new Promise((r) => setTimeout(r, 100));
      expect(feed.texts.some(leaks)).toBe(false);
      feed.close();
    }
    for (const q of [`?session=${steps.open}`, `?session=${steps.ended}&tenant=team-a`]) {
      const feed = await SseReader.open(`${srv.url}/v1/live${q}`, as('token-b'));
      expect(feed.status).toBe(404);
      feed.close();
    }
  });

  walk('POST /v1/tickets', async () => {
    expect((await call('POST', '/v1/tickets', 'token-b', { route: '/v1/live', session: steps.open })).code).toBe('unknown_session');
    expect((await call('POST', '/v1/tickets', 'token-b', { route: '/v1/live', session: steps.open, tenant: 'team-a' })).code).toBe('unknown_session');
    // B's own ticket opens B's own feed only: A's session stays unknown through it.
    const { ticket } = JSON.parse((await call('POST', '/v1/tickets', 'token-b', { route: '/v1/live' })).text) as { ticket: string };
    const feed = await SseReader.open(`${srv.url}/v1/live?ticket=${encodeURIComponent(ticket)}&session=${steps.open}`);
    expect(feed.status).toBe(404);
    feed.close();
  });

  walk('GET /v1/stream', async () => {
    const b = await Client.connect(srv.wsUrl, as('token-b'));
    for (const type of ['resume', 'end', 'outcome', 'step']) {
      const id = steps.open;
      b.send({ type, session: id, after: -1, passed: false, seq: 0, step: eventsA[0] });
      expect(await b.nextOf('error'), type).toMatchObject({ code: 'unknown_session', session: id });
    }
    // A's id is free in B's namespace: start answers started, never duplicate_session.
    b.send({ type: 'start', session: steps.open, task: TASK });
    expect(await b.nextOf('started', steps.open)).toMatchObject({ session: steps.open });
    b.send({ type: 'end', session: steps.open });
    await b.nextOf('final', steps.open);
    b.close();
    // A's session is untouched: still open on A's connection, at the seq A left it, and its next step is scored there.
    const status = JSON.parse((await call('GET', `/v1/sessions/${steps.open}`, 'token-a')).text) as { state: string; lastSeq: number; tenant: string };
    expect(status).toMatchObject({ state: 'open', lastSeq: nextA - 1, tenant: 'team-a' });
    const seq = nextA++;
    a.send({ type: 'step', session: steps.open, seq, step: eventsA[seq] });
    await a.sync();
    expect(JSON.parse((await call('GET', `/v1/sessions/${steps.open}`, 'token-a')).text)).toMatchObject({ lastSeq: seq });
  });

  walk('POST /v1/tasks/:task/references', async () => {
    const before = (await call('GET', `/v1/tasks/${TASK}/pta`, 'token-a')).text;
    const junk = { trajectory: await readDoc(ASTROID.fail) };
    // B may add its quota (2 references per task) to its own PTA of the task, then its quota runs out.
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await call('POST', `/v1/tasks/${TASK}/references`, 'token-b', junk));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 429]);
    expect(answers[2]!.code).toBe('quota_exceeded');
    // A's PTA is unchanged; each tenant's references are in its own.
    expect((await call('GET', `/v1/tasks/${TASK}/pta`, 'token-a')).text).toBe(before);
    const by = async (tenant: string) =>
      (JSON.parse((await call('GET', `/v1/tasks/${TASK}/pta?tenant=${tenant}`, 'token-op')).text) as { references: Array<{ by?: string }> }).references.map((x) => x.by);
    expect([await by('team-a'), await by('team-b')]).toEqual([['team-a'], ['team-b', 'team-b']]);
  });

  walk('GET /v1/tasks/:task/pta', async () => {
    const own = await call('GET', `/v1/tasks/${TASK}/pta`, 'token-a');
    for (const q of ['', '?scope=tenant', '?scope=shared']) {
      const r = await call('GET', `/v1/tasks/${TASK}/pta${q}`, 'token-b');
      expect(leaks(r.text)).toBe(false);
      expect(r.text).not.toBe(own.text);
    }
    // A's own PTA, named, answers as a tenant that never added one.
    const named = await call('GET', `/v1/tasks/${TASK}/pta?tenant=team-a`, 'token-b');
    expect([named.status, named.code]).toEqual([404, 'unknown_task']);
    expect(named.text).toBe((await call('GET', `/v1/tasks/${TASK}/pta?tenant=nobody`, 'token-b')).text);
  });

  walk('DELETE /v1/tasks/:task/pta', async () => {
    const before = (await call('GET', `/v1/tasks/${TASK}/pta`, 'token-a')).text;
    // A's own PTA, named, answers as one of a tenant that never added any: B learns nothing, removes nothing.
    for (const q of ['?tenant=team-a', '?tenant=team-a&scope=tenant']) {
      const r = await call('DELETE', `/v1/tasks/${TASK}/pta${q}`, 'token-b');
      expect([r.status, r.code], q).toEqual([404, 'unknown_task']);
      expect(r.text, q).toBe((await call('DELETE', `/v1/tasks/${TASK}/pta${q.replace('team-a', 'nobody')}`, 'token-b')).text);
    }
    // The shared PTA is an operator's to remove.
    expect((await call('DELETE', `/v1/tasks/${TASK}/pta?scope=shared`, 'token-b')).code).toBe('forbidden');
    expect((await call('GET', `/v1/tasks/${TASK}/pta`, 'token-a')).text).toBe(before);
  });

  walk('GET /v1/tasks', async () => {
    for (const q of ['', '?tenant=team-a']) {
      const r = await call('GET', `/v1/tasks${q}`, 'token-b');
      expect(r.status).toBe(200);
      expect(leaks(r.text)).toBe(false);
      // B's own PTA of the task (with ?tenant=team-a: nothing of anyone's own), never A's.
      expect((JSON.parse(r.text) as { tasks: Array<{ references: number }> }).tasks.map((t) => t.references)).toEqual(q === '' ? [2] : []);
    }
  });

  walk('GET /v1/policies', async () => {
    const r = await call('GET', '/v1/policies', 'token-b');
    expect(r.status).toBe(200);
    expect(leaks(r.text)).toBe(false);
  });

  for (const op of ['pin', 'freeze']) {
    walk(`POST /v1/policies/${op}`, async () => {
      const body = op === 'pin' ? { agent: 'agent-a', model: 'model-a', policy: { blindRetry: { warn: 1, stop: 2 } } } : { agent: 'agent-a', model: 'model-a', frozen: true };
      const r = await call('POST', `/v1/policies/${op}`, 'token-b', body);
      expect([r.status, r.code]).toEqual([403, 'forbidden']);
      const doc = JSON.parse((await call('GET', '/v1/policies', 'token-op')).text) as PoliciesStatus;
      expect(doc.pins).toEqual([]);
    });
  }

  walk('GET /metrics', async () => {
    expect((await call('GET', '/metrics', 'token-b')).code).toBe('forbidden');
  });

  // Stateless scoring of what B sends: B's own data in, B's answer out, nothing of A's read or changed.
  const doc = async () => ({ task: TASK, trajectory: await readDoc(ASTROID.fail) });
  walk('POST /v1/score', async () => {
    const r = await call('POST', '/v1/score', 'token-b', await doc());
    expect(r.status).toBe(200);
    expect(leaks(r.text)).toBe(false);
  });
  walk('POST /v1/score/steps', async () => {
    const r = await call('POST', '/v1/score/steps', 'token-b', await doc());
    expect(r.status).toBe(200);
    expect(leaks(r.text)).toBe(false);
  });
  walk('POST /v1/score/batch', async () => {
    const r = await call('POST', '/v1/score/batch', 'token-b', { items: [await doc()] });
    expect(r.status).toBe(200);
    expect(leaks(r.text)).toBe(false);
  });
  walk('POST /get_reward', async () => {
    const r = await call('POST', '/get_reward', 'token-b', { query: ['{}'], labels: [TASK] });
    expect([200, 400]).toContain(r.status);
    expect(leaks(r.text)).toBe(false);
  });

  // Shared, tenant-free answers (configuration, health, the page).
  for (const route of ['/v1/forecast', '/v1/calibration', '/v1/calibration/tradeoff.svg', '/healthz', '/readyz', '/web/info']) {
    walk(`GET ${route}`, async () => {
      const r = await call('GET', route, 'token-b');
      expect(r.status).toBeLessThan(500);
      expect(leaks(r.text)).toBe(false);
    });
  }
  for (const route of ['/', '/*', '/favicon.svg', '/index.html', '/session/:id', '/score', '/task/:task', '/calibration']) {
    walk(`GET ${route}`, async () => {
      const r = await call('GET', route.replace('*', 'x').replace(':id', steps.open).replace(':task', TASK), 'token-b');
      expect(leaks(r.text.replace(steps.open, ''))).toBe(false);
    });
  }

  it('walked every registered route', () => {
    const routes = registeredRoutes(srv.app);
    const covered = new Set([...walked].map((w) => w.replace(/ \(.*\)$/, '')));
    expect(routes.filter((r) => !covered.has(r))).toEqual([]);
  });
});

describe('what A still has, and who else sees it', () => {
  it('A reads its own sessions, an operator reads them with ?tenant=, a metrics token only scrapes', async () => {
    const mine = JSON.parse((await call('GET', '/v1/sessions', 'token-a')).text) as SessionListResponse;
    expect(mine.sessions.map((s) => s.session).sort()).toEqual([steps.open, steps.ended].sort());
    expect((await call('GET', `/v1/sessions/${steps.open}`, 'token-a')).status).toBe(200);
    // The operator's list holds every tenant's sessions (B's own a-open too); one tenant's with ?tenant=.
    const all = JSON.parse((await call('GET', '/v1/sessions', 'token-op')).text) as SessionListResponse;
    expect(
      all.sessions
        .filter((s) => s.session === steps.open)
        .map((s) => s.tenant)
        .sort(),
    ).toEqual(['team-a', 'team-b']);
    const teamA = JSON.parse((await call('GET', '/v1/sessions?tenant=team-a', 'token-op')).text) as SessionListResponse;
    expect(teamA.sessions.every((s) => s.tenant === 'team-a')).toBe(true);
    for (const sub of ['', '/steps', '/alignment']) expect((await call('GET', `/v1/sessions/${steps.ended}${sub}?tenant=team-a`, 'token-op')).status, sub).toBe(200);
    // ... but not without it: the operator's own tenant has no such session.
    expect((await call('GET', `/v1/sessions/${steps.ended}`, 'token-op')).status).toBe(404);
    expect((await call('GET', '/metrics', 'token-prom')).status).toBe(200);
    expect((await call('GET', '/metrics', 'token-op')).status).toBe(200);
    for (const [m, p] of [
      ['GET', '/v1/sessions'],
      ['GET', '/v1/tasks'],
      ['POST', '/v1/score'],
    ] as const) {
      expect((await call(m, p, 'token-prom', m === 'POST' ? {} : undefined)).code).toBe('forbidden');
    }
    const refused = await new Promise<number>((resolve) => {
      void Client.connect(srv.wsUrl, as('token-prom')).then(
        () => resolve(101),
        (e: Error) => resolve(Number(/(\d{3})/.exec(e.message)?.[1] ?? 0)),
      );
    });
    expect(refused).toBe(403);
  });
});
