/**
 * A tenant whose step took far more than its time of a turn (TENANT_MS_PER_TURN) waits as long before its next one
 * is handled (src/server/frame-batch.ts; docs/reliability.md, T96). A step is not cut: 16 KiB of `)` runs bash's
 * error recovery to its parse budget (~200 ms of CPU, the backstop), so a tenant pipelining such steps had one handled
 * every turn and held the loop ~95% of the time, every other tenant's step waiting behind one of its own each. Counted
 * in answers, not timed: the light tenant's steps answered between the heavy tenant's first and second.
 */
import { describe, expect, it } from 'vitest';
import { bearer, Client, tenantTokens, useApp } from './helpers.js';

const server = useApp({ tokens: tenantTokens(['heavy', 'light']) });

const costly = (n: number) => ({ t: n, tool: 'bash', action: { kind: 'shell', command: `${')'.repeat(16 * 1024 - 8)} ${n}` }, observation: 'x' });

describe("a tenant's costly steps and another tenant's", () => {
  it("the other tenant's steps are answered while the heavy tenant owes the time its step took past the turn", async () => {
    const heavy = await Client.connect(server().wsUrl, bearer('heavy'));
    const light = await Client.connect(server().wsUrl, bearer('light'));
    for (const [c, id] of [
      [heavy, 'h'],
      [light, 'l'],
    ] as const) {
      c.send({ type: 'start', session: id, task: 'any-task' });
      await c.nextOf('started', id);
    }
    heavy.send({ type: 'step', session: 'h', seq: 0, step: costly(0) });
    heavy.send({ type: 'step', session: 'h', seq: 1, step: costly(1) });
    let heavyDone = 0;
    const heavyScores = (async () => {
      await heavy.next((f) => f.type === 'score' && f.seq === 0, 30_000);
      await heavy.next((f) => f.type === 'score' && f.seq === 1, 30_000);
      heavyDone = 1;
    })();
    // The light tenant steps one at a time until the heavy tenant's second step is answered.
    let answered = 0;
    for (let seq = 0; heavyDone === 0 && seq < 500; seq++) {
      light.send({ type: 'step', session: 'l', seq, step: { t: seq, tool: 'bash', action: { kind: 'shell', command: `ls d${seq}` }, observation: 'a' } });
      await light.next((f) => f.type === 'score' && f.seq === seq, 30_000);
      if (heavyDone === 0) answered++;
    }
    await heavyScores;
    // Before: the heavy tenant's second step ran in the turn after its first, 1-2 light steps between them.
    expect(answered).toBeGreaterThanOrEqual(5);
    heavy.close();
    light.close();
  }, 60_000);
});
