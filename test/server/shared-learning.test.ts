/**
 * Shared learning under control, over a real socket with real runs: every reference records who added it;
 * with two tenants or more in the `shared` reference scope (one PTA per task for every tenant), a tenant that
 * is not an operator may add at most 2 references to a task and 60 an hour, and a reference that would change
 * a PTA in use by more than half its nodes needs an operator (a `learn` session says why in its final). The
 * victim's score of its passing run is unchanged by what was refused. What the shared scope still allows, and
 * the default `tenant` scope does not: squatting a task without a PTA. A single-tenant server learns as before.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tokenTenant } from '../../src/server/principal.js';
import { bearerJson, ASTROID, CORPUS, Client, readDoc, readEvents, useApps, type Running } from './helpers.js';

const EXAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/example');
/** A real run of another task (98 steps): junk as a reference of the astroid task, whose PTA has 139 nodes. */
const OTHER_TASK_RUN = `${CORPUS}/SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/astropy__astropy-14182/astropy__astropy-14182.traj.json`;
const TASK = ASTROID.task;
const TOKENS = [
  { token: 'victim', tenant: 'victim' },
  { token: 'mallory', tenant: 'mallory' },
  { token: 'op', tenant: 'ops', role: 'operator' as const },
];

const apps = useApps();

async function post(srv: Running, route: string, token: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> & { error?: { code: string; message: string } } }> {
  const res = await fetch(`${srv.url}${route}`, { method: 'POST', headers: bearerJson(token), body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { error?: { code: string; message: string } } };
}
const pta = async (srv: Running, token: string) =>
  (await (await fetch(`${srv.url}/v1/tasks/${TASK}/pta`, { headers: bearerJson(token) })).json()) as { version: number; references: Array<{ by?: string; length: number }> };
const victimScore = async (srv: Running) => (await post(srv, '/v1/score', 'victim', { task: TASK, trajectory: await readDoc(ASTROID.passB), passed: true })).body.score;

describe('with several tenants', () => {
  let srv: Running;
  beforeAll(async () => {
    srv = await apps.start('multi', { seedDirs: [EXAMPLE], tokens: TOKENS, referenceScope: 'shared' });
  });

  it("refuses a tenant's reference that would change a PTA in use beyond the bound (forbidden), takes it from an operator", async () => {
    const before = await victimScore(srv);
    const junk = { trajectory: await readDoc(OTHER_TASK_RUN) };
    const refused = await post(srv, `/v1/tasks/${TASK}/references`, 'mallory', junk);
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe('forbidden');
    expect(refused.body.error?.message).toMatch(/would add \d+ nodes to the 139 of task .*an operator's token is needed/);
    expect((await pta(srv, 'op')).version).toBe(1);
    expect(await victimScore(srv)).toEqual(before);
    // The same reference from an operator: taken, and attributed.
    const taken = await post(srv, `/v1/tasks/${TASK}/references`, 'op', junk);
    expect(taken.status).toBe(201);
    const doc = await pta(srv, 'op');
    expect(doc.references.map((r) => r.by)).toEqual([undefined, undefined, 'ops']);
    // Other tenants see the shared PTA without who added what.
    expect((await pta(srv, 'mallory')).references.every((r) => !('by' in r))).toBe(true);
  });

  it('lets a tenant add at most 2 references to one task; a third is quota_exceeded', async () => {
    const close = { trajectory: await readDoc(ASTROID.passA) };
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await post(srv, `/v1/tasks/${TASK}/references`, 'mallory', close));
    expect(answers.map((a) => `${a.status} ${a.body.error?.message ?? ''}`)).toEqual(['201 ', '201 ', expect.stringMatching(/^429 /)]);
    expect(answers[2]!.body.error?.message).toContain('already added 2 references to task');
    expect((await pta(srv, 'op')).references.filter((r) => r.by === 'mallory')).toHaveLength(2);
  });

  it('a learn session the rules refuse ends with learned.error saying why, and learns nothing', async () => {
    const version = (await pta(srv, 'op')).version;
    const c = await Client.connect(srv.wsUrl, bearerJson('mallory'));
    const events = await readEvents(ASTROID.fail);
    c.send({ type: 'start', session: 'fake-learn', task: TASK, format: 'mini-swe-agent', learn: true });
    await c.nextOf('started', 'fake-learn');
    events.forEach((step, seq) => c.send({ type: 'step', session: 'fake-learn', seq, step }));
    c.send({ type: 'outcome', session: 'fake-learn', passed: true });
    c.send({ type: 'end', session: 'fake-learn' });
    const final = await c.nextOf('final', 'fake-learn');
    c.close();
    const learned = final.learned as { version?: number; error?: { code: string } } | undefined;
    expect(learned?.version).toBeUndefined();
    expect(learned?.error).toMatchObject({ code: 'quota_exceeded' });
    expect((await pta(srv, 'op')).version).toBe(version);
  });

  it('bounds a tenant per hour over every task', async () => {
    const hourly = await apps.start('hourly', { tokens: TOKENS, limits: { referencesPerTenantPerHour: 2 } });
    const body = { trajectory: await readDoc(ASTROID.passA) };
    const codes = [];
    for (const task of ['t-1', 't-2', 't-3']) codes.push((await post(hourly, `/v1/tasks/${task}/references`, 'mallory', body)).status);
    expect(codes).toEqual([201, 201, 429]);
    // Another tenant's budget is its own.
    expect((await post(hourly, '/v1/tasks/t-3/references', 'victim', body)).status).toBe(201);
  });

  it('counts only references taken against the hourly budget: ones a quota refused added nothing', async () => {
    const srv2 = await apps.start('refused', { tokens: TOKENS, limits: { referencesPerTenantPerTask: 1, referencesPerTenantPerHour: 2 } });
    const body = { trajectory: await readDoc(ASTROID.passA) };
    const answers = [];
    // One taken, then two refused by the per-task quota, then a second task: the tenant has added 1 of its 2.
    for (const task of ['t-1', 't-1', 't-1', 't-2', 't-3']) {
      const a = await post(srv2, `/v1/tasks/${task}/references`, 'mallory', body);
      answers.push(`${a.status} ${a.body.error?.message ?? ''}`);
    }
    expect(answers).toEqual([
      '201 ',
      expect.stringMatching(/^429 .*already added 1 references to task t-1/),
      expect.stringMatching(/^429 .*already added 1 references to task t-1/),
      '201 ',
      expect.stringMatching(/^429 .*added 2 references in the last hour/),
    ]);
  });
});

describe('squatting a task without a PTA', () => {
  it("is the shared scope's trade-off: a tenant's first 2 references make the task's PTA for everyone; the default tenant scope keeps them its own", async () => {
    const squat = async (referenceScope?: 'shared') => {
      const srv = await apps.start(`squat-${referenceScope ?? 'default'}`, { tokens: TOKENS, ...(referenceScope ? { referenceScope } : {}) });
      const before = await victimScore(srv);
      const junk = { trajectory: await readDoc(OTHER_TASK_RUN) };
      for (let i = 0; i < 2; i++) expect((await post(srv, `/v1/tasks/${TASK}/references`, 'mallory', junk)).status).toBe(201);
      const victimRun = await post(srv, `/v1/tasks/${TASK}/references`, 'victim', { trajectory: await readDoc(ASTROID.passA) });
      return { before, after: await victimScore(srv), victimRun: victimRun.status };
    };
    // Shared: the victim is scored against the junk, and its own passing run opens too many nodes of it (403).
    const shared = await squat('shared');
    expect(shared.after).not.toEqual(shared.before);
    expect(shared.victimRun).toBe(403);
    const own = await squat();
    expect(own.after).toEqual(own.before);
    expect(own.victimRun).toBe(201);
  });
});

describe('with one tenant (or none)', () => {
  it('learns as before: the same junk is taken, attributed to the one tenant', async () => {
    for (const tokens of [['solo'], []]) {
      const srv = await apps.start(`solo-${tokens.length}`, { seedDirs: [EXAMPLE], tokens });
      const res = await post(srv, `/v1/tasks/${TASK}/references`, 'solo', { trajectory: await readDoc(OTHER_TASK_RUN) });
      expect(res.status).toBe(201);
      // Who added it is kept in the stored PTA (shown to operators only).
      const doc = JSON.parse(await readFile(path.join(apps.dir(`solo-${tokens.length}`), `${TASK}.json`), 'utf8')) as { references: Array<{ by?: string }> };
      expect(doc.references.map((r) => r.by)).toEqual([undefined, undefined, tokens.length === 0 ? 'default' : tokenTenant('solo')]);
    }
  });
});
