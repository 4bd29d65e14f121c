/**
 * The step bytes a tenant's open sessions hold in memory (`stepBytesPerTenant`, T37): past it a step gets
 * `quota_exceeded` naming the tenant's bytes and the limit, nothing accepted is lost (the session goes on and
 * ends with every step it took), another tenant's steps are taken, and the bytes come back when the session ends.
 * Defaults: on with two tenants, off with one.
 */
import { describe, expect, it } from 'vitest';
import { parseLimits } from '../../src/server/config.js';
import { resolveOptions } from '../../src/server/options.js';
import { DEFAULT_STEP_BYTES_PER_TENANT, defaultStepBytesTotal, quarterOf } from '../../src/server/server-limits.js';
import { TenantStepBytes } from '../../src/server/tenant-step-bytes.js';
import { bearer, Client, useApp } from './helpers.js';

/** A step message of about 10 KB: its command and its output. */
const big = (i: number) => ({ tool: 'bash', action: { kind: 'shell', command: `echo ${String(i).repeat(4000)}` }, observation: 'y'.repeat(6000), exitCode: 0 });
const LIMIT = 50_000;
const srv = useApp({
  limits: { stepBytesPerTenant: LIMIT },
  tokens: [
    { token: 'greedy', tenant: 'greedy' },
    { token: 'other', tenant: 'other' },
  ],
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
    const greedy = await Client.connect(srv().wsUrl, bearer('greedy'));
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
    const other = await Client.connect(srv().wsUrl, bearer('other'));
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
    const a = { tenant: 'a', heldStepBytes: 0 };
    const b = { tenant: 'a', heldStepBytes: 0 };
    bytes.add(a, 60);
    expect(bytes.refusal(b, 40)).toBeUndefined();
    expect(bytes.refusal(b, 41)).toMatchObject({ code: 'quota_exceeded', message: expect.stringMatching(/hold 60 bytes/) });
    expect(bytes.refusal({ tenant: 'z', heldStepBytes: 0 }, 100)).toBeUndefined();
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

  it('bounds every tenant together (stepBytesTotal, T43): overloaded past it, with or without a per-tenant bound', () => {
    for (const perTenant of [0, 1000]) {
      const bytes = new TenantStepBytes(perTenant, 100);
      const a = { tenant: 'a', heldStepBytes: 0 };
      const b = { tenant: 'b', heldStepBytes: 0 };
      bytes.add(a, 70);
      expect(bytes.refusal(b, 30)).toBeUndefined();
      expect(bytes.refusal(b, 31)).toMatchObject({
        code: 'overloaded',
        message: expect.stringMatching(/hold 70 bytes of steps; this one \(31 bytes\) would take them past stepBytesTotal \(100 bytes\)/),
      });
      bytes.add(b, 30);
      expect(bytes.sum).toBe(100);
      bytes.release(a);
      expect(bytes.sum).toBe(30);
      expect(bytes.refusal(a, 70)).toBeUndefined();
    }
  });

  it("defaults stepBytesTotal to a quarter of the heap's limit, whatever the tenants; 0 turns it off", () => {
    expect(defaultStepBytesTotal(4 * 2 ** 30)).toBe(2 ** 30);
    expect(resolveOptions({}).limits.stepBytesTotal).toBe(defaultStepBytesTotal());
    expect(defaultStepBytesTotal()).toBeGreaterThan(0);
    expect(parseLimits(['stepBytesTotal=0'])).toEqual({ stepBytesTotal: 0 });
  });

  it('is on by default with two tenants, off with one, and --limit sets it (0: off)', () => {
    const two = resolveOptions({
      tokens: [
        { token: 'x', tenant: 'x' },
        { token: 'y', tenant: 'y' },
      ],
    });
    expect(two.limits.stepBytesPerTenant).toBe(Math.min(DEFAULT_STEP_BYTES_PER_TENANT, Math.ceil(defaultStepBytesTotal() / 4)));
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

describe("a tenant's default share of stepBytesTotal (T78)", () => {
  const TOTAL = 100_000;
  const shared = useApp({ limits: { stepBytesTotal: TOTAL }, tokens: ['greedy', 'other'].map((t) => ({ token: t, tenant: t })) });

  it('is a quarter of the total, at most 512 MiB (the whole default when the total is off)', () => {
    const two = (limits: Record<string, number>) => resolveOptions({ tokens: ['x', 'y'].map((t) => ({ token: t, tenant: t })), limits }).limits.stepBytesPerTenant;
    // A total of 384 MiB (a 1.5 GiB heap's is 396 MiB): the old default (512 MiB) let one tenant take all of it.
    expect(two({ stepBytesTotal: 384 * 2 ** 20 })).toBe(96 * 2 ** 20);
    expect(two({ stepBytesTotal: 8 * 2 ** 30 })).toBe(DEFAULT_STEP_BYTES_PER_TENANT);
    expect(two({ stepBytesTotal: 0 })).toBe(DEFAULT_STEP_BYTES_PER_TENANT);
    expect(two({ stepBytesTotal: 1000, stepBytesPerTenant: 900 })).toBe(900);
    expect(quarterOf(3, 10)).toBe(1);
  });

  it('leaves the other tenants their steps when one tenant sends big steps until refused', async () => {
    const greedy = await Client.connect(shared().wsUrl, bearer('greedy'));
    await start(greedy, 'g1');
    let taken = 0;
    let refused: Record<string, unknown> | undefined;
    for (let seq = 0; refused === undefined && seq < 12; seq++) {
      const f = await step(greedy, 'g1', seq);
      if (f.type === 'error') refused = f;
      else taken++;
    }
    // About 10 KB a step: a quarter of 100,000 bytes takes 2 (before: 9, then the total was full for everyone).
    expect(taken).toBe(2);
    expect(refused).toMatchObject({ code: 'quota_exceeded', message: expect.stringMatching(/past stepBytesPerTenant \(25000 bytes\)/) });
    const other = await Client.connect(shared().wsUrl, bearer('other'));
    await start(other, 'o1');
    for (let seq = 0; seq < 2; seq++) expect(await step(other, 'o1', seq)).toMatchObject({ type: 'score', seq });
    greedy.close();
    other.close();
  });
});

describe('step bytes of every session together (stepBytesTotal, T43)', () => {
  const one = useApp({ limits: { stepBytesTotal: LIMIT } });
  it('refuses a step past the total on a one-tenant server (overloaded), keeps what was taken, takes it again once a session ends', async () => {
    const c = await Client.connect(one().wsUrl);
    await start(c, 's1');
    await start(c, 's2');
    const answers = [];
    for (let seq = 0; seq < 3; seq++) for (const id of ['s1', 's2']) answers.push(await step(c, id, seq));
    // About 10 KB a step: the fifth passes 50,000 bytes, and so does the sixth.
    expect(answers.map((a) => a.type)).toEqual(['score', 'score', 'score', 'score', 'error', 'error']);
    expect(answers[4]).toMatchObject({ code: 'overloaded', session: 's1', seq: 2, message: expect.stringMatching(/past stepBytesTotal \(50000 bytes\)/) });
    c.send({ type: 'end', session: 's2' });
    expect(await c.nextOf('final', 's2')).toMatchObject({ steps: 2 });
    expect(await step(c, 's1', 2)).toMatchObject({ type: 'score', seq: 2 });
    c.close();
  });
});
