/**
 * Task squatting (review s41, finding 04): on a server with several tenants, the first two references of a task
 * without a PTA made its PTA for everyone, so a tenant's junk scored every other tenant's runs and the novelty
 * rule then refused the victim's own passing runs; and any tenant read PTAs built from another's runs. In the
 * `tenant` reference scope (the default with several tenants) a tenant's references grow its own PTA, which only
 * its own sessions use (its own first, else the shared one, else the prior), and nobody else reads; an
 * operator's grow the shared PTA. Real runs of pylint-dev__astroid-1196; the attacker's junk is a run of another task.
 */
import { describe, expect, it } from 'vitest';
import type { TaskStats } from '../../src/protocol/http-bodies.js';
import { ASTROID, CORPUS, Client, readDoc, readEvents, useApps, type Running, bearerJson } from './helpers.js';

const TASK = ASTROID.task;
const JUNK = `${CORPUS}/SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/astropy__astropy-14182/astropy__astropy-14182.traj.json`;
const TOKENS = [
  { token: 'alice', tenant: 'alice' },
  { token: 'mallory', tenant: 'mallory' },
  { token: 'carol', tenant: 'carol' },
  { token: 'op', tenant: 'ops', role: 'operator' as const },
];
const as = bearerJson;

type Answer = { status: number; body: Record<string, unknown> & { error?: { code: string; message: string } } };
type PtaDoc = { task: string; version: number; scope?: string; nodes: unknown[]; references: Array<{ length: number; by?: string }> };
type Report = { score: { total: number }; tier: string; reference: { kind: string; version?: number } };

const apps = useApps();

const server = (name: string): Promise<Running> => apps.start(name, { tokens: TOKENS });

async function call(srv: Running, method: string, route: string, token: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${srv.url}${route}`, { method, headers: as(token), ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}
const addRef = async (srv: Running, token: string, file: string) => call(srv, 'POST', `/v1/tasks/${TASK}/references`, token, { trajectory: await readDoc(file) });
const score = async (srv: Running, token: string) => (await call(srv, 'POST', '/v1/score', token, { task: TASK, trajectory: await readDoc(ASTROID.passB), passed: true })).body as unknown as Report;
const ptaOf = (srv: Running, token: string, query = '') => call(srv, 'GET', `/v1/tasks/${TASK}/pta${query}`, token);
const tasksOf = async (srv: Running, token: string, query = '') => ((await call(srv, 'GET', `/v1/tasks${query}`, token)).body.tasks as TaskStats[]).filter((t) => t.task === TASK);

/** Streams the victim's passing run as a session of `token`'s tenant; its started and final frames. */
async function session(srv: Running, token: string, id: string, learn = false): Promise<{ started: Record<string, unknown>; final: Record<string, unknown> }> {
  const c = await Client.connect(srv.wsUrl, as(token));
  c.send({ type: 'start', session: id, task: TASK, format: 'mini-swe-agent', learn });
  const started = await c.nextOf('started', id);
  (await readEvents(ASTROID.passB)).forEach((step, seq) => c.send({ type: 'step', session: id, seq, step }));
  c.send({ type: 'outcome', session: id, passed: true });
  c.send({ type: 'end', session: id });
  const final = await c.nextOf('final', id);
  c.close();
  return { started, final };
}

describe('tenant reference scope (the default with several tenants)', () => {
  it("a tenant's junk references never score another tenant, whose own passing runs become its own reference, unreadable to the first", async () => {
    const srv = await server('squat');
    const before = await score(srv, 'alice');
    expect(before.reference).toEqual({ kind: 'prior' });

    // Mallory squats the task: its two junk references are taken, into its own PTA.
    const junk = [await addRef(srv, 'mallory', JUNK), await addRef(srv, 'mallory', JUNK)];
    expect(junk.map((a) => [a.status, a.body.version, a.body.scope])).toEqual([
      [201, 1, 'tenant'],
      [201, 2, 'tenant'],
    ]);
    expect(await score(srv, 'alice')).toEqual(before);
    const mallorys = await score(srv, 'mallory');
    expect(mallorys.reference).toMatchObject({ kind: 'pta', version: 2 });
    expect(mallorys.score.total).not.toBe(before.score.total);
    // Alice has no PTA of the task: neither a shared one nor her own, so none is listed or read.
    expect(await tasksOf(srv, 'alice')).toEqual([]);
    expect((await ptaOf(srv, 'alice')).body.error?.code).toBe('unknown_task');

    // Alice's own passing runs are accepted (the novelty rule refused them when the PTA was shared) into her own PTA.
    const mine = [await addRef(srv, 'alice', ASTROID.passA), await addRef(srv, 'alice', ASTROID.passB)];
    expect(mine.map((a) => [a.status, a.body.version, a.body.scope])).toEqual([
      [201, 1, 'tenant'],
      [201, 2, 'tenant'],
    ]);
    const after = await score(srv, 'alice');
    expect(after.reference).toMatchObject({ kind: 'pta', version: 2 });
    expect(after.score.total).toBeGreaterThan(before.score.total);
    expect(after.score.total).not.toBe(mallorys.score.total);
    // Sessions are scored as POST /v1/score scores them: against the tenant's own PTA.
    const a = await session(srv, 'alice', 'alice-run');
    expect(a.started.reference).toMatchObject({ kind: 'pta', version: 2 });
    expect(a.final.score).toEqual(after.score);
    expect((await session(srv, 'mallory', 'mallory-run')).final.score).toEqual(mallorys.score);

    // Each reads its own PTA, named by the task; neither reads the other's, not even by name.
    const alicePta = (await ptaOf(srv, 'alice')).body as unknown as PtaDoc;
    expect([alicePta.task, alicePta.scope, alicePta.version]).toEqual([TASK, 'tenant', 2]);
    expect(alicePta.references.every((r) => !('by' in r))).toBe(true);
    const malloryPta = (await ptaOf(srv, 'mallory')).body as unknown as PtaDoc;
    expect(malloryPta.references.map((r) => r.length)).not.toEqual(alicePta.references.map((r) => r.length));
    expect(malloryPta.nodes).not.toEqual(alicePta.nodes);
    for (const query of ['?tenant=alice', '?scope=shared']) expect((await ptaOf(srv, 'mallory', query)).body.error?.code, query).toBe('unknown_task');
    expect(await tasksOf(srv, 'mallory')).toEqual([{ task: TASK, version: 2, references: 2, nodes: malloryPta.nodes.length - 1, paths: expect.any(Number) as number, scope: 'tenant' }]);
    expect((await tasksOf(srv, 'mallory', '?tenant=alice')).length).toBe(0);
    // An operator sees every tenant's, and reads one's by naming it.
    expect((await tasksOf(srv, 'op')).map((t) => [t.scope, t.tenant, t.references])).toEqual([
      ['tenant', 'alice', 2],
      ['tenant', 'mallory', 2],
    ]);
    const read = (await ptaOf(srv, 'op', '?tenant=alice')).body as unknown as PtaDoc;
    expect(read.references.map((r) => r.by)).toEqual(['alice', 'alice']);
    expect(read.nodes).toEqual(alicePta.nodes);
  });

  it("an operator's references grow the shared PTA, which every tenant uses until it has its own (learned ones included)", async () => {
    const srv = await server('shared');
    const ops = [await addRef(srv, 'op', ASTROID.passA), await addRef(srv, 'op', ASTROID.passB)];
    expect(ops.map((a) => [a.status, a.body.scope])).toEqual([
      [201, 'shared'],
      [201, 'shared'],
    ]);
    const shared = await score(srv, 'op');
    expect(shared.reference).toMatchObject({ kind: 'pta', version: 2 });
    for (const token of ['alice', 'mallory', 'carol']) {
      expect(await score(srv, token), token).toEqual(shared);
      expect(((await ptaOf(srv, token)).body as unknown as PtaDoc).scope, token).toBe('shared');
    }
    // Mallory's junk grows its own PTA only: the shared one, and everyone else's scores, stay.
    for (let i = 0; i < 2; i++) expect((await addRef(srv, 'mallory', JUNK)).status).toBe(201);
    expect((await score(srv, 'mallory')).score.total).not.toBe(shared.score.total);
    expect(await score(srv, 'alice')).toEqual(shared);
    expect(((await ptaOf(srv, 'op', '?scope=shared')).body as unknown as PtaDoc).references.map((r) => r.by)).toEqual(['ops', 'ops']);
    // A learn session grows the learner's own PTA; below minReferences it is not used yet, and it is read only with ?scope=tenant.
    const learned = await session(srv, 'carol', 'carol-learn', true);
    expect(learned.final.learned).toEqual({ version: 1, scope: 'tenant' });
    expect(await score(srv, 'carol')).toEqual(shared);
    expect(((await ptaOf(srv, 'carol')).body as unknown as PtaDoc).scope).toBe('shared');
    expect(((await ptaOf(srv, 'carol', '?scope=tenant')).body as unknown as PtaDoc).version).toBe(1);
    expect((await tasksOf(srv, 'carol')).map((t) => [t.scope, t.references])).toEqual([
      ['shared', 2],
      ['tenant', 1],
    ]);
  });
});
