/**
 * A scoring job gives its thread back between slices of steps (src/job-slices.ts; docs/reliability.md, T97).
 * A trajectory was scored in one go: one tenant's `POST /v1/score` whose steps each run bash's error recovery to its
 * parse budget (~200 ms of CPU each) held the scoring worker, and every other tenant's scoring waited behind it
 * (two of 60 steps: another tenant's 3-step score answered after 75 s). Ordering, not timing: the light tenant's
 * score, sent once the heavy one is in work, is answered first.
 */
import { describe, expect, it } from 'vitest';
import { bearerJson, tenantTokens, useApps } from './helpers.js';

const apps = useApps();

const trajectory = (n: number, command: (i: number) => string) => Array.from({ length: n }, (_, i) => ({ t: i, tool: 'bash', action: { kind: 'shell', command: command(i) }, observation: 'x' }));

describe.each([
  ['a scoring worker', 1],
  ['inline (no worker)', 0],
])("another tenant's score beside a costly one, %s", (name, scoringWorkers) => {
  it('is answered while the costly one is still in work', async () => {
    const app = await apps.start(`slices-${scoringWorkers}`, { tokens: tenantTokens(['heavy', 'light']), scoringWorkers });
    const order: string[] = [];
    const post = async (token: string, body: unknown): Promise<void> => {
      const res = await fetch(`${app.url}/v1/score`, { method: 'POST', headers: bearerJson(token), body: JSON.stringify(body) });
      expect(res.status).toBe(200);
      await res.json();
      order.push(token);
    };
    // 16 KiB of `)` a step, each distinct: every step runs bash's error recovery to its parse budget.
    const heavy = post('heavy', { task: 'any-task', format: 'steplens', trajectory: trajectory(6, (i) => `${')'.repeat(16 * 1024 - 8)} ${i}`) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await post('light', { task: 'any-task', format: 'steplens', trajectory: trajectory(3, (i) => `ls d${i}`) });
    await heavy;
    expect(order).toEqual(['light', 'heavy']);
    expect(name).toBeTruthy();
  }, 120_000);
});
