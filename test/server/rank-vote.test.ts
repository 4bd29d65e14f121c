/**
 * `POST /v1/rank` with `"basis": "vote"` on real corpus runs (SWE-agent with five models on
 * fasterxml__jackson-databind-4486; three submit the same change): the same order as `steplens rank --basis vote`,
 * through `inject` and through a scoring worker; an open session has no final patch to vote with and is refused by
 * name (rank-live-vote.test.ts: sessions whose end carried one); a body asking for two bases is refused.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { rankResponseSchema, type RankResponse } from '../../src/protocol/rank-bodies.js';
import { Client, CORPUS, readDoc, readSteps, useApp, useInjectApp } from './helpers.js';

const MODELS = ['deepseek-chat-v2', 'deepseek-coder-v2', 'doubao-pro-128k', 'gpt-4o-2024-05-13', 'gpt-4o-mini-2024-07-18'];
const JACKSON = MODELS.map((m) => `${CORPUS}/multi-swe-bench__experiments/evaluation/java/verified/20240825_SWE-agent_${m}/trajs/fasterxml__jackson-databind-4486.traj`);
const VOTED = [
  ['deepseek-chat-v2', 3],
  ['deepseek-coder-v2', 3],
  ['gpt-4o-mini-2024-07-18', 3],
  ['doubao-pro-128k', 1],
  ['gpt-4o-2024-05-13', 1],
];

interface Answer extends Partial<RankResponse> {
  error?: { code: string; message: string };
}

async function inject(app: FastifyInstance, body: unknown): Promise<{ status: number; body: Answer }> {
  const res = await app.inject({ method: 'POST', url: '/v1/rank', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  return { status: res.statusCode, body: res.json<Answer>() };
}
const runsOf = async () => Promise.all(JACKSON.map(async (f, i) => ({ trajectory: await readDoc(f), id: MODELS[i]! })));

describe('POST /v1/rank, basis vote (inject)', () => {
  const app = useInjectApp();

  it('orders by the vote on normalised final patches, ties by the composite; without basis the composite alone', async () => {
    const runs = await runsOf();
    const r = await inject(app(), { runs, basis: 'vote' });
    expect(r.status).toBe(200);
    expect(rankResponseSchema.safeParse(r.body).success).toBe(true);
    expect(r.body.by).toBe('vote');
    expect(r.body.runs!.map((x) => [x.id, x.vote])).toEqual(VOTED);
    expect(r.body.runs!.every((x) => x.score === x.vote)).toBe(true);
    const free = await inject(app(), { runs });
    expect(free.body.by).toBe('reference-free');
    expect(free.body.runs!.at(-1)!.id).toBe('gpt-4o-mini-2024-07-18');
    expect(free.body.runs!.every((x) => x.vote === undefined)).toBe(true);
  });

  it('marks an answer whose basis gave every run one value (basisFlat): two runs with different patches', async () => {
    const runs = (await runsOf()).slice(2, 4);
    const r = await inject(app(), { runs, basis: 'vote' });
    expect(r.status).toBe(200);
    expect(rankResponseSchema.safeParse(r.body).success).toBe(true);
    expect(r.body.runs!.map((x) => x.vote)).toEqual([1, 1]);
    expect(r.body.basisFlat).toBe(true);
    expect((await inject(app(), { runs, basis: 'consensus' })).body.basisFlat).toBe(true);
    expect((await inject(app(), { runs: await runsOf(), basis: 'vote' })).body.basisFlat).toBeUndefined();
    expect((await inject(app(), { runs })).body.basisFlat).toBeUndefined();
  });

  it('refuses consensus with basis vote, and an unknown basis', async () => {
    const runs = await runsOf();
    expect(await inject(app(), { runs, basis: 'vote', consensus: true })).toEqual({
      status: 400,
      body: { error: { code: 'bad_message', message: 'consensus and basis vote were both asked: give one basis' } },
    });
    const bad = await inject(app(), { runs, basis: 'majority' });
    expect(bad.status).toBe(400);
    expect(bad.body.error!.code).toBe('bad_message');
    expect(bad.body.error!.message).toMatch(/basis/);
  });
});

describe('POST /v1/rank, basis vote, with a scoring worker and a live session', () => {
  const srv = useApp({ scoringWorkers: 1 });
  const rank = async (body: unknown): Promise<{ status: number; body: Answer }> => {
    const res = await fetch(`${srv().url}/v1/rank`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Answer };
  };

  it('gives the same order from the worker, and names a session run, which has no final patch to vote with', async () => {
    const runs = await runsOf();
    const r = await rank({ runs, basis: 'vote' });
    expect(r.status).toBe(200);
    expect(r.body.runs!.map((x) => [x.id, x.vote])).toEqual(VOTED);
    const steps = await readSteps(JACKSON[3]!);
    const c = await Client.connect(srv().wsUrl);
    c.send({ type: 'start', session: 'live', task: 'fasterxml__jackson-databind-4486' });
    await c.nextOf('started', 'live');
    steps.forEach((step, seq) => c.send({ type: 'step', session: 'live', seq, step }));
    for (const _ of steps) await c.nextOf('score', 'live');
    const withSession = await rank({ runs: [...runs.slice(0, 2), { session: 'live' }], basis: 'vote' });
    expect(withSession).toEqual({
      status: 400,
      body: {
        error: {
          code: 'bad_input',
          message:
            'cannot rank by vote: no final patch is known for live (a session keeps no step text: end it with its patch (the end message\'s "patch", the git diff of its work), or give its trajectory)',
        },
      },
    });
    // The same session ranks by the composite.
    expect((await rank({ runs: [...runs.slice(0, 2), { session: 'live' }] })).body.by).toBe('reference-free');
    c.close();
  });
});
