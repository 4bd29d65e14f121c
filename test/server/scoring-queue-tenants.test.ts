/**
 * T31: the HTTP scoring queue is shared fairly between tenants. One tenant's 64 MiB batches (four fill the queue's
 * 256 MiB) got every other tenant's `POST /v1/score` refused `overloaded` for as long as it kept sending them, and
 * a job of another tenant waited in the worker's message queue behind every batch sent before it. Now a tenant
 * holds at most its share of the queue's bytes (`quota_exceeded` past it, its own refusal), and jobs wait on the
 * main thread for their tenant's turn: a worker holds at most two jobs of a tenant at a time. Ordering, not timing:
 * the references the jobs ask for are held, so what is in work at any moment is fixed.
 */
import { readFile } from 'node:fs/promises';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UNIFORM_PRIOR } from '../../src/index.js';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import type { Reference } from '../../src/core/scorer-api.js';
import { ScorePool } from '../../src/server/score-pool.js';
import type { JobRequest } from '../../src/server/scoring-jobs.js';
import { ASTROID } from './helpers.js';

const log = pino({ level: 'silent' });
const pools: ScorePool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

/** References asked for, in order, each held until released. */
function heldReferences() {
  const asked: string[] = [];
  const waiting: Array<() => void> = [];
  const reference = async (task: string, tenant: string): Promise<Reference> => {
    asked.push(`${tenant}/${task}`);
    await new Promise<void>((go) => waiting.push(go));
    return { kind: 'prior', prior: UNIFORM_PRIOR };
  };
  const release = (): void => {
    for (const go of waiting.splice(0)) go();
  };
  return {
    asked,
    reference,
    release,
    get held() {
      return waiting.length;
    },
  };
}

function pool(size: number, refs: ReturnType<typeof heldReferences>, maxQueuedBytes: number, maxQueuedBytesPerTenant?: number, reservedForNewTenants?: number): ScorePool {
  const p = new ScorePool({
    size,
    maxQueuedBytes,
    ...(maxQueuedBytesPerTenant !== undefined ? { maxQueuedBytesPerTenant } : {}),
    ...(reservedForNewTenants !== undefined ? { reservedForNewTenants } : {}),
    log,
    reference: refs.reference,
    prior: async () => UNIFORM_PRIOR,
    pta: async () => undefined,
  });
  pools.push(p);
  return p;
}

const trajectory = readFile(ASTROID.passA, 'utf8');

async function job(tenant: string, task: string): Promise<JobRequest> {
  const body = Buffer.from(`{"task":${JSON.stringify(task)},"trajectory":${await trajectory}}`);
  return { kind: 'score', body: new Uint8Array(body), policy: DEFAULT_POLICY, config: DEFAULT_CONFIG, maxSteps: 5000, tenant };
}

describe('the scoring queue between tenants', () => {
  it("refuses a tenant past its share of the queue's bytes, and still takes another tenant's job", async () => {
    const refs = heldReferences();
    const one = (await job('mallory', 'pylint-dev__astroid-1196')).body.length;
    // Room for 4 such jobs in all, 2 of one tenant.
    const p = pool(0, refs, 4 * one, 2 * one);
    const mallory = [p.run(await job('mallory', 'pylint-dev__astroid-1196')), p.run(await job('mallory', 'pylint-dev__astroid-1196'))];
    await vi.waitFor(() => expect(refs.held).toBe(2));
    // Her third and fourth: her own quota, not the server's.
    for (let i = 0; i < 2; i++) {
      const refused = await p.run(await job('mallory', 'pylint-dev__astroid-1196'));
      expect(refused).toMatchObject({ ok: false, code: 'quota_exceeded', message: expect.stringContaining('its share of the queue') });
    }
    // Alice gets in (before: `overloaded`, the queue full of mallory's jobs).
    const alice = p.run(await job('alice', 'pylint-dev__astroid-1196'));
    await vi.waitFor(() => expect(refs.held).toBe(3));
    refs.release();
    for (const r of await Promise.all([...mallory, alice])) expect(r).toMatchObject({ ok: true });
  });

  it("keeps the last request's room for a tenant with none queued: two tenants at their share do not fill it for a third", async () => {
    const refs = heldReferences();
    const one = (await job('mallory', 'pylint-dev__astroid-1196')).body.length;
    // Room for 4 jobs, 2 of a tenant, the last one's room kept for a tenant with nothing queued (the server's default shape).
    const p = pool(0, refs, 4 * one, 2 * one, one);
    const held = [p.run(await job('mallory', 'm1')), p.run(await job('mallory', 'm2')), p.run(await job('eve', 'e1'))];
    await vi.waitFor(() => expect(refs.held).toBe(3));
    // Eve's second would fill the queue: refused, the room kept (before: taken, and alice's job then refused).
    const refused = await p.run(await job('eve', 'e2'));
    expect(refused).toMatchObject({ ok: false, code: 'overloaded', message: expect.stringContaining('kept for tenants with none queued') });
    const alice = p.run(await job('alice', 'a1'));
    await vi.waitFor(() => expect(refs.held).toBe(4));
    refs.release();
    for (const r of await Promise.all([...held, alice])) expect(r).toMatchObject({ ok: true });
    expect(refs.asked).toEqual(['mallory/m1', 'mallory/m2', 'eve/e1', 'alice/a1']);
  });

  it('sends a worker at most two jobs of a tenant at a time: another tenant goes next, not behind her backlog', async () => {
    const refs = heldReferences();
    const p = pool(1, refs, 64 * 1024 * 1024);
    const mallory = [];
    for (const task of ['m1', 'm2', 'm3', 'm4']) mallory.push(p.run(await job('mallory', task)));
    // The worker starts with the first job (loading its modules may take seconds).
    await vi.waitFor(() => expect(refs.asked.length).toBeGreaterThanOrEqual(2), { timeout: 60_000, interval: 20 });
    const alice = p.run(await job('alice', 'a1'));
    // Alice's job is in the worker while mallory's first two are still held; her third and fourth wait on the main thread.
    await vi.waitFor(() => expect(refs.asked).toContain('alice/a1'), { timeout: 60_000, interval: 20 });
    expect(refs.asked).toEqual(['mallory/m1', 'mallory/m2', 'alice/a1']);
    // Released, each of mallory's goes in turn (one at a time), and every job is answered.
    const all = Promise.all([...mallory, alice]);
    while (refs.asked.length < 5) {
      refs.release();
      await new Promise((r) => setTimeout(r, 5));
    }
    refs.release();
    for (const r of await all) expect(r).toMatchObject({ ok: true });
    expect(refs.asked).toEqual(['mallory/m1', 'mallory/m2', 'alice/a1', 'mallory/m3', 'mallory/m4']);
  });
});
