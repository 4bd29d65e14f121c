/**
 * Client-chosen agent and model names never make unbounded state: in shadow mode one tenant streams sessions
 * under 100 distinct 256-character agent + model names, each reporting an outcome. The pair table keeps at
 * most `pairsPerTenant` of its pairs (and `pairs` in all), the victim tenant's pair survives, /metrics labels
 * at most `metricsPairs` pairs by name (cut to 64 characters) and sums the rest under `other`, state.json
 * stays as bounded as the table, and an operator's pin of a new pair is taken.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { CANDIDATE_SERIES } from '../../src/server/policy-metrics.js';
import type { PoliciesStatus } from '../../src/server/policy-status.js';
import { bearerJson, Client, tenantTokens, useAppAndDir } from './helpers.js';

const STEP = { tool: 'bash', action: { kind: 'shell', command: 'ls' } };
const LIMITS = { pairs: 40, pairsPerTenant: 16, metricsPairs: 6 };
const server = useAppAndDir({
  shadow: true,
  // A configured policy with a stop, so each pair also has the `configured` candidate (the default stops nothing).
  policy: { ...DEFAULT_POLICY, noAction: { warn: null, stop: 2 } },
  limits: LIMITS,
  tokens: tenantTokens(['victim', 'junk'], 'op'),
});

/** Starts, steps, reports an outcome and ends one session. */
async function run(c: Client, id: string, agent: string, model: string, passed: boolean): Promise<void> {
  c.send({ type: 'start', session: id, task: 't', agent, model });
  await c.nextOf('started', id);
  for (let seq = 0; seq < 3; seq++) c.send({ type: 'step', session: id, seq, step: STEP });
  c.send({ type: 'outcome', session: id, passed });
  c.send({ type: 'end', session: id });
  await c.nextOf('final', id);
}

it('bounds pairs, metrics series and state by the table, not by the names clients choose', async () => {
  const victim = await Client.connect(server.app().wsUrl, bearerJson('victim'));
  await run(victim, 'v-1', 'mini-swe-agent 1.1', 'gpt-5-mini', true);
  const junk = await Client.connect(server.app().wsUrl, bearerJson('junk'));
  for (let i = 0; i < 100; i++) await run(junk, `j-${i}`, `${i}-${'a'.repeat(250)}`, `${i}-${'m'.repeat(250)}`, i % 2 === 0);
  junk.close();

  const policies = (await (await fetch(`${server.app().url}/v1/policies`, { headers: bearerJson('op') })).json()) as PoliciesStatus;
  expect(policies.pairs.filter((p) => p.tenant === 'junk')).toHaveLength(LIMITS.pairsPerTenant);
  expect(policies.pairs.find((p) => p.tenant === 'victim')).toMatchObject({ agent: 'mini-swe-agent 1.1', runs: { passing: 1, failing: 0 } });

  const text = await (await fetch(`${server.app().url}/metrics`, { headers: bearerJson('op') })).text();
  const series = text.split('\n').filter((l) => /^steplens_(shadow|policy)_/.test(l));
  const named = new Set(series.map((l) => /tenant="([^"]*)",agent="([^"]*)",model="([^"]*)"/.exec(l)?.slice(1).join('|')).filter((k) => k !== undefined));
  expect(named.size).toBeLessThanOrEqual(LIMITS.metricsPairs + 1); // + other
  expect([...named].some((k) => k.startsWith('victim|mini-swe-agent 1.1|'))).toBe(true);
  expect([...named].some((k) => k === 'other|other|other')).toBe(true);
  for (const l of series) for (const [, v] of l.matchAll(/="([^"]*)"/g)) expect(v!.length).toBeLessThanOrEqual(64);
  // Of a labelled pair's ~90 candidate stops, only CANDIDATE_SERIES are exported per gauge, `configured` among them.
  const candidates = new Map<string, string[]>();
  for (const l of series.filter((x) => x.startsWith('steplens_shadow_passing_stopped{'))) {
    const [, pair, candidate] = /tenant="([^"]*",agent="[^"]*",model="[^"]*)",candidate="([^"]*)"/.exec(l)!;
    candidates.set(pair!, [...(candidates.get(pair!) ?? []), candidate!]);
  }
  expect(candidates.size).toBe(LIMITS.metricsPairs);
  for (const list of candidates.values()) {
    expect(list).toHaveLength(CANDIDATE_SERIES);
    expect(list).toContain('configured');
  }
  expect(text).toMatch(/steplens_policy_pairs 17/);
  expect(text).toMatch(/steplens_policy_pairs_evicted_total 84/);
  // The runs of the pairs past the labelled ones are summed, not lost.
  const runs = series.filter((l) => l.startsWith('steplens_shadow_runs{')).reduce((n, l) => n + Number(l.split(' ').pop()), 0);
  expect(runs).toBe(1 + LIMITS.pairsPerTenant);

  // An operator's pin of a pair nobody used yet is taken, table full or not.
  const pin = await fetch(`${server.app().url}/v1/policies/pin`, {
    method: 'POST',
    headers: bearerJson('op'),
    body: JSON.stringify({ agent: 'new-agent', model: 'new-model', policy: { blindRetry: { warn: 2, stop: 4 } } }),
  });
  expect(pin.status).toBe(200);
  victim.send({ type: 'start', session: 'v-2', task: 't', agent: 'new-agent', model: 'new-model' });
  await victim.nextOf('started', 'v-2');
  expect(((await (await fetch(`${server.app().url}/v1/sessions/v-2`, { headers: bearerJson('victim') })).json()) as { policy: { selected: string } }).policy.selected).toMatch(/pinned/);
  victim.close();

  await server.app().app.close();
  const state = JSON.parse(await readFile(path.join(server.dir(), 'policies', 'state.json'), 'utf8')) as { pairs: unknown[]; pins: unknown[] };
  expect(state.pairs.length).toBeLessThanOrEqual(LIMITS.pairs);
  expect(state.pins).toHaveLength(1);
});
