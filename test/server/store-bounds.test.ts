/**
 * Issue 25, as a client sees it: a PTA at its cap answers `too_large` (POST references, and the `learned`
 * of a learn session's final says so), a full disk answers `unavailable` naming it (it answered 500
 * `internal`; the final said nothing), and token counts near the largest double stay numbers in every
 * report (1.7e308 tokens gave `wastedTokens: null`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Step } from '../../src/core/types.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { writeFileAtomic } from '../../src/store/atomic-write.js';
import { ASTROID, Client, readSteps, removeDir, startApp, tempDir, type Running } from './helpers.js';

let dir: string;
let passing: Step[];
let failing: Step[];
const running: Running[] = [];

beforeAll(async () => {
  dir = await tempDir();
  passing = await readSteps(ASTROID.passA);
  failing = await readSteps(ASTROID.fail);
});
afterAll(async () => {
  for (const r of running) await r.app.close();
  await removeDir(dir);
});

const post = async (r: Running, path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
  const res = await fetch(`${r.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/** Streams `steps` as a learn session that passed and returns its final. */
async function learnSession(r: Running, id: string, task: string, steps: Step[]): Promise<Record<string, unknown>> {
  const c = await Client.connect(r.wsUrl);
  c.send({ type: 'start', session: id, task, learn: true });
  await c.nextOf('started', id);
  steps.forEach((step, seq) => c.send({ type: 'step', session: id, seq, step }));
  c.send({ type: 'outcome', session: id, passed: true });
  c.send({ type: 'end', session: id });
  const final = await c.nextOf('final', id);
  c.close();
  return final;
}

describe('bounds a client meets', () => {
  it('refuses a reference past the PTA caps with too_large, over HTTP and in a learn final; the PTA stays as it was', async () => {
    const r = await startApp({ dataDir: `${dir}/caps`, limits: { ptaReferences: 2 } });
    running.push(r);
    const task = 'capped';
    expect(await post(r, `/v1/tasks/${task}/references`, { trajectory: passing })).toMatchObject({ status: 201, body: { version: 1 } });
    expect((await learnSession(r, 'learn-1', task, passing)).learned).toEqual({ version: 2 });
    const refused = await post(r, `/v1/tasks/${task}/references`, { trajectory: failing });
    expect(refused).toEqual({
      status: 413,
      body: { error: { code: 'too_large', message: `task ${task}: a reference of ${failing.length} steps is refused: its PTA already holds 2 references, the limit` } },
    });
    const final = await learnSession(r, 'learn-2', task, passing);
    expect(final.learned).toEqual({ error: { code: 'too_large', message: expect.stringContaining('already holds 2 references') as unknown } });
    const pta = (await (await fetch(`${r.url}/v1/tasks/${task}/pta`)).json()) as { version: number; references: unknown[] };
    expect(pta.version).toBe(2);
    expect(pta.references).toHaveLength(2);
  });

  it('answers unavailable naming a full disk (not 500 internal), and the learn final says why nothing was learned', async () => {
    let full = false;
    const enospc = (): Error => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
    const store = await ReferenceStore.open({ dataDir: `${dir}/disk`, write: (file, text) => (full ? Promise.reject(enospc()) : writeFileAtomic(file, text)) });
    const r = await startApp({ store });
    running.push(r);
    expect(await post(r, '/v1/tasks/disk-task/references', { trajectory: passing })).toMatchObject({ status: 201, body: { version: 1 } });
    full = true;
    const refused = await post(r, '/v1/tasks/disk-task/references', { trajectory: passing });
    expect(refused).toEqual({
      status: 503,
      body: { error: { code: 'unavailable', message: 'task disk-task: reference not stored: the data folder has no space left (ENOSPC); retry once it is fixed' } },
    });
    const final = await learnSession(r, 'learn-full', 'disk-task', passing);
    expect(final.learned).toEqual({ error: { code: 'unavailable', message: expect.stringContaining('no space left') as unknown } });
    // Nothing changed, and once there is room again it grows from where it was.
    full = false;
    expect(await post(r, '/v1/tasks/disk-task/references', { trajectory: passing })).toMatchObject({ status: 201, body: { version: 2 } });
  });

  it('keeps token sums numbers: 1.7e308 tokens per step give a finite wastedTokens, not null', async () => {
    const r = await startApp({ dataDir: `${dir}/tokens` });
    running.push(r);
    const huge = failing.map((s) => ({ ...s, tokens: { prompt: 1.7e308, completion: 1.7e308 } }));
    const report = await post(r, '/v1/score', { task: ASTROID.task, trajectory: huge, passed: false });
    expect(report.status).toBe(200);
    const waste = report.body.waste as Array<{ wastedTokens: unknown }>;
    expect(waste.length).toBeGreaterThan(0);
    for (const w of waste) expect(Number.isFinite(w.wastedTokens)).toBe(true);
    // A budget in tokens still fires, with a readable count.
    const budget = await post(r, '/v1/score', { task: ASTROID.task, trajectory: huge, policy: { budget: { maxTokens: 1e9 } } });
    const signal = (budget.body.signals as Array<{ kind: string; message: string }>).find((s) => s.kind === 'budget');
    expect(signal?.message).toMatch(/^token budget exceeded: ~\d+ tokens > 1000000000$/);
  });
});
