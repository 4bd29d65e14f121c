/**
 * The step bytes a tenant's open sessions hold in memory (`stepBytesPerTenant`, T37): past it a step gets
 * `quota_exceeded` naming the tenant's bytes and the limit, nothing accepted is lost (the session goes on and
 * ends with every step it took), another tenant's steps are taken, and the bytes come back when the session ends.
 * Defaults: on with two tenants, off with one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLimits } from '../../src/server/config.js';
import { DEFAULT_STEP_BYTES_PER_TENANT, resolveOptions } from '../../src/server/options.js';
import { TenantStepBytes } from '../../src/server/tenant-step-bytes.js';
import { Client, removeDir, startApp, tempDir, type Running } from './helpers.js';

const as = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
/** A step message of about 10 KB: its command and its output. */
const big = (i: number) => ({ tool: 'bash', action: { kind: 'shell', command: `echo ${String(i).repeat(4000)}` }, observation: 'y'.repeat(6000), exitCode: 0 });
const LIMIT = 50_000;
let dir: string;
let srv: Running;

beforeAll(async () => {
  dir = await tempDir();
  srv = await startApp({
    dataDir: dir,
    limits: { stepBytesPerTenant: LIMIT },
    tokens: [
      { token: 'greedy', tenant: 'greedy' },
      { token: 'other', tenant: 'other' },
    ],
  });
});
afterAll(async () => {
  await srv.app.close();
  await removeDir(dir);
});

async function start(c: Client, id: string): Promise<void> {
  c.send({ type: 'start', session: id, task: 't' });
  expect(await c.nextOf('started', id)).toMatchObject({ session: id });
}

/** Sends step `seq` of session `id`: its score frame, or the error it got. */
async function step(c: Client, id: string, seq: number): Promise<Record<string, unknown>> {
  c.send({ type: 'step', session: id, seq, step: big(seq) });
  return c.next((f) => f.session === id && f.seq === seq && (f.type === 'score' || f.type === 'error'));
}

describe('step bytes per tenant held in memory', () => {
  it("refuses a tenant's step past its bytes, keeps what it took, serves the other tenant, gives the bytes back at the end", async () => {
    const greedy = await Client.connect(srv.wsUrl, as('greedy'));
    await start(greedy, 'g1');
    await start(greedy, 'g2');
    // Two sessions together: about 10 KB a step, so the fifth step passes 50,000 bytes.
    let taken = 0;
    let refused: Record<string, unknown> | undefined;
    for (let seq = 0; refused === undefined && seq < 20; seq++) {
      for (const id of ['g1', 'g2']) {
        if (refused !== undefined) break;
        const f = await step(greedy, id, seq);
        if (f.type === 'error') refused = f;
        else taken++;
      }
    }
    expect(taken).toBe(4);
    expect(refused).toMatchObject({ code: 'quota_exceeded', session: 'g1', seq: 2 });
    expect(String(refused?.message)).toMatch(new RegExp(`tenant greedy's open sessions hold \\d+ bytes of steps.*past stepBytesPerTenant \\(${LIMIT} bytes\\)`));
    // Another tenant's steps are its own: taken.
    const other = await Client.connect(srv.wsUrl, as('other'));
    await start(other, 'o1');
    for (let seq = 0; seq < 4; seq++) expect(await step(other, 'o1', seq)).toMatchObject({ type: 'score', seq });
    // The refused step lost nothing: g2 ends with the two steps it took.
    greedy.send({ type: 'end', session: 'g2' });
    expect(await greedy.nextOf('final', 'g2')).toMatchObject({ steps: 2 });
    // Its bytes came back: g1 goes on with the step it was refused.
    expect(await step(greedy, 'g1', 2)).toMatchObject({ type: 'score', seq: 2 });
    greedy.close();
    other.close();
  });

  it('counts per session, once, and nothing without a limit', () => {
    const bytes = new TenantStepBytes(100);
    const a = { tenant: 'a' };
    const b = { tenant: 'a' };
    bytes.add(a, 60);
    expect(bytes.refusal(b, 40)).toBeUndefined();
    expect(bytes.refusal(b, 41)).toMatch(/hold 60 bytes/);
    expect(bytes.refusal({ tenant: 'z' }, 100)).toBeUndefined();
    bytes.add(b, 30);
    bytes.release(a);
    bytes.release(a);
    expect(bytes.of('a')).toBe(30);
    bytes.release(b);
    expect(bytes.of('a')).toBe(0);
    const off = new TenantStepBytes(0);
    off.add(a, 1e12);
    expect(off.refusal(a, 1e12)).toBeUndefined();
    expect(off.of('a')).toBe(0);
  });

  it('is on by default with two tenants, off with one, and --limit sets it (0: off)', () => {
    const two = resolveOptions({
      tokens: [
        { token: 'x', tenant: 'x' },
        { token: 'y', tenant: 'y' },
      ],
    });
    expect(two.limits.stepBytesPerTenant).toBe(DEFAULT_STEP_BYTES_PER_TENANT);
    expect(resolveOptions({ tokens: ['x'] }).limits.stepBytesPerTenant).toBe(0);
    expect(parseLimits(['stepBytesPerTenant=0'])).toEqual({ stepBytesPerTenant: 0 });
    expect(
      resolveOptions({
        tokens: [
          { token: 'x', tenant: 'x' },
          { token: 'y', tenant: 'y' },
        ],
        limits: { stepBytesPerTenant: 7 },
      }).limits.stepBytesPerTenant,
    ).toBe(7);
  });
});
