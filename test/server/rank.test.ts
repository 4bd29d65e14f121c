/**
 * `POST /v1/rank`: real corpus runs of one task ranked through `inject`, and over a real socket with a
 * scoring worker beside live sessions (only the caller's own are found). Bad input (mixed tasks, an
 * unknown session, over the limits) gets one error naming it, and nothing else is lost.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rankResponseSchema, type RankResponse } from '../../src/protocol/rank-bodies.js';
import { ASTROID, Client, CORPUS, readDoc, readSteps, removeDir, startApp, tempDir, useInjectApp, type Running } from './helpers.js';

const EXAMPLES = path.resolve(import.meta.dirname, '../../data/example');
const M = `${CORPUS}/SWE-agent__mini-swe-agent__pull-refs/output`;
/** pylint-dev__astroid-1866: three runs, no stored PTA (the bundled references do not hold the task). */
const OTHER = ['deepseek_chat_dev', 'deepseek_chat_dev_rerun', 'deepseek_lite_dev_noparallel'].map((r) => `${M}/${r}/pylint-dev__astroid-1866/pylint-dev__astroid-1866.traj.json`);

interface Answer extends Partial<RankResponse> {
  error?: { code: string; message: string };
  score?: { total: number };
}

async function postTo(app: FastifyInstance, route: string, body: unknown): Promise<{ status: number; body: Answer }> {
  const res = await app.inject({ method: 'POST', url: route, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  return { status: res.statusCode, body: res.json<Answer>() };
}

describe('POST /v1/rank (inject)', () => {
  const app = useInjectApp({ seedDirs: [EXAMPLES] });
  const post = (body: unknown) => postTo(app(), '/v1/rank', body);

  it("ranks real runs of a task by the composite against its PTA, each run's composite that of POST /v1/score", async () => {
    const docs = await Promise.all([ASTROID.fail, ASTROID.passA, ASTROID.passB].map(readDoc));
    const r = await post({ task: ASTROID.task, runs: docs.map((trajectory, i) => ({ trajectory, id: ['fail', 'passA', 'passB'][i] })) });
    expect(r.status).toBe(200);
    expect(rankResponseSchema.safeParse(r.body).success).toBe(true);
    expect(r.body.by).toBe('pta');
    expect(r.body.task).toBe(ASTROID.task);
    const runs = r.body.runs!;
    expect(runs.map((x) => x.rank)).toEqual([1, 2, 3]);
    for (let k = 1; k < runs.length; k++) expect(runs[k - 1]!.composite).toBeGreaterThan(runs[k]!.composite);
    for (const x of runs) {
      const single = await postTo(app(), '/v1/score', { task: ASTROID.task, trajectory: docs[x.index] });
      expect(x.composite).toBe(single.body.score!.total);
      expect(x.score).toBe(x.composite);
      expect(x.reference.kind).toBe('pta');
    }
  });

  it('without a PTA ranks reference-free, and by the consensus of the group when asked', async () => {
    const docs = await Promise.all(OTHER.map(readDoc));
    const free = await post({ runs: docs.map((trajectory) => ({ trajectory })) });
    expect(free.status).toBe(200);
    expect(free.body.by).toBe('reference-free');
    expect(free.body.task).toBe('pylint-dev__astroid-1866');
    expect(free.body.runs!.every((x) => x.reference.kind === 'prior' && x.consensus === undefined)).toBe(true);
    const consensus = await post({ runs: docs.map((trajectory) => ({ trajectory })), consensus: true });
    expect(consensus.body.by).toBe('consensus');
    expect(consensus.body.runs!.every((x) => x.consensus !== undefined && x.score === x.consensus)).toBe(true);
  });

  it('refuses runs of two tasks with one mixed_tasks error naming them; mixedTasks ranks them anyway', async () => {
    const runs = [
      { trajectory: await readDoc(ASTROID.passA), id: 'a' },
      { trajectory: await readDoc(OTHER[0]!), id: 'b' },
    ];
    const r = await post({ runs });
    expect(r).toEqual({
      status: 400,
      body: {
        error: { code: 'mixed_tasks', message: `the runs are of 2 tasks: ${ASTROID.task} (a); pylint-dev__astroid-1866 (b); rank compares runs of one task ("mixedTasks": true ranks them anyway)` },
      },
    });
    const body = await post({ task: 'pylint-dev__astroid-1866', runs: [runs[0]] });
    expect(body.body.error?.code).toBe('mixed_tasks');
    const anyway = await post({ runs, mixedTasks: true });
    expect(anyway.status).toBe(200);
    expect(anyway.body.task).toBe(null);
    expect(anyway.body.by).toBe('mixed');
  });

  it('refuses an unknown session, too many runs, a bad run and a trajectory over the step limit, each with one error naming it', async () => {
    const doc = await readDoc(ASTROID.passA);
    expect(await post({ runs: [{ trajectory: doc }, { session: 's-nobody' }] })).toEqual({
      status: 404,
      body: { error: { code: 'unknown_session', message: 'runs[1].session: no session s-nobody' } },
    });
    const many = await post({ runs: Array.from({ length: 65 }, () => ({ trajectory: doc })) });
    expect(many).toMatchObject({ status: 400, body: { error: { code: 'bad_message', message: expect.stringMatching(/^body\.runs: .*64/) } } });
    const both = await post({ runs: [{ trajectory: doc, session: 's-1' }] });
    expect(both).toMatchObject({
      status: 400,
      body: { error: { code: 'bad_message', message: expect.stringMatching(/^body\.runs\[0\]: give trajectory \(a finished run\) or session \(a session id\), not both$/) } },
    });
    const broken = await post({ runs: [{ trajectory: doc }, { trajectory: { nope: 1 } }] });
    expect(broken).toMatchObject({ status: 400, body: { error: { code: 'unknown_format', message: expect.stringMatching(/^runs\[1\]\.trajectory: /) } } });
    // Nothing was lost: the same server still ranks.
    expect((await post({ runs: [{ trajectory: doc }] })).status).toBe(200);
  });

  it('ranks a group with a rollout that has no step: the others in order, that one named in unranked (was one 400 for the whole group)', async () => {
    const empty = await readDoc(`${M}/deepseek_reasoner_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json`);
    const r = await post({ task: ASTROID.task, runs: [{ trajectory: await readDoc(ASTROID.passA) }, { trajectory: empty, id: 'timed-out' }, { trajectory: await readDoc(ASTROID.fail) }] });
    expect(r.status).toBe(200);
    expect(rankResponseSchema.safeParse(r.body).success).toBe(true);
    const body = r.body as RankResponse;
    expect(body.runs.map((x) => x.index).sort()).toEqual([0, 2]);
    expect(body.unranked).toEqual([{ index: 1, id: 'timed-out', task: ASTROID.task, reason: 'no steps' }]);
    expect(await post({ runs: [{ trajectory: empty }] })).toMatchObject({ status: 400, body: { error: { code: 'bad_input', message: 'no run has a step: runs[0]' } } });
    expect(body.oneRun).toBeUndefined();
  });

  it('says a group with one run ranked was no ranking (oneRun), its rank kept 1 (audit24: rank 1 where steplens rank prints -)', async () => {
    const empty = await readDoc(`${M}/deepseek_reasoner_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json`);
    for (const runs of [[{ trajectory: await readDoc(ASTROID.passA) }], [{ trajectory: await readDoc(ASTROID.passA) }, { trajectory: empty }]]) {
      const r = await post({ task: ASTROID.task, runs });
      expect(r.status).toBe(200);
      expect(rankResponseSchema.safeParse(r.body).success).toBe(true);
      expect(r.body.oneRun).toBe(true);
      expect(r.body.runs!.map((x) => [x.index, x.rank, x.tied])).toEqual([[0, 1, false]]);
    }
  });
});

describe('POST /v1/rank over a socket, with a scoring worker and live sessions', () => {
  let dir: string;
  let srv: Running;
  let limited: Running;
  beforeAll(async () => {
    dir = await tempDir();
    srv = await startApp({ dataDir: `${dir}/a`, seedDirs: [EXAMPLES], scoringWorkers: 1, tokens: ['alice', 'bob'] });
    limited = await startApp({ dataDir: `${dir}/b`, scoringWorkers: 1, limits: { maxStepsPerSession: 20 } });
  });
  afterAll(async () => {
    await srv.app.close();
    await limited.app.close();
    await removeDir(dir);
  });
  const rank = async (s: Running, body: unknown, token?: string): Promise<{ status: number; body: Answer }> => {
    const res = await fetch(`${s.url}/v1/rank`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Answer };
  };

  it("ranks the caller's live sessions beside a finished run; another token's session is unknown; the sessions go on", async () => {
    const [passA, fail] = await Promise.all([readSteps(ASTROID.passA), readSteps(ASTROID.fail)]);
    const c = await Client.connect(srv.wsUrl, { authorization: 'Bearer alice' });
    const open = async (id: string, steps: typeof passA) => {
      c.send({ type: 'start', session: id, task: ASTROID.task });
      await c.nextOf('started', id);
      steps.forEach((step, seq) => c.send({ type: 'step', session: id, seq, step }));
      for (const _ of steps) await c.nextOf('score', id);
    };
    await open('live-a', passA.slice(0, 12));
    await open('live-b', fail);
    const doc = await readDoc(ASTROID.passB);
    const body = { runs: [{ session: 'live-a' }, { session: 'live-b' }, { trajectory: doc, id: 'finished' }] };
    const r = await rank(srv, body, 'alice');
    expect(r.status).toBe(200);
    expect(rankResponseSchema.safeParse(r.body).success).toBe(true);
    expect(r.body.by).toBe('pta');
    expect(r.body.task).toBe(ASTROID.task);
    for (const id of ['live-a', 'live-b']) {
      const status = (await (await fetch(`${srv.url}/v1/sessions/${id}`, { headers: { authorization: 'Bearer alice' } })).json()) as { score: { total: number }; steps: number };
      const x = r.body.runs!.find((y) => y.id === id)!;
      expect(x.composite).toBe(status.score.total);
      expect(x.steps).toBe(status.steps);
    }
    expect(r.body.runs!.find((y) => y.id === 'finished')!.steps).toBe((await readSteps(ASTROID.passB)).length);
    // The sessions not ended are said to be open (ranked on their steps so far); the finished trajectory is not.
    expect(r.body.runs!.map((y) => [y.id, y.open])).toEqual(
      expect.arrayContaining([
        ['live-a', true],
        ['live-b', true],
        ['finished', undefined],
      ]),
    );
    c.send({ type: 'end', session: 'live-b' });
    await c.nextOf('final', 'live-b');
    const ended = await rank(srv, body, 'alice');
    expect(ended.body.runs!.map((y) => [y.id, y.open])).toEqual(
      expect.arrayContaining([
        ['live-a', true],
        ['live-b', undefined],
        ['finished', undefined],
      ]),
    );
    // Bob's token does not see Alice's sessions: the same body is an unknown session.
    expect(await rank(srv, body, 'bob')).toEqual({ status: 404, body: { error: { code: 'unknown_session', message: 'runs[0].session: no session live-a' } } });
    // The live session takes its next step after both calls.
    c.send({ type: 'step', session: 'live-a', seq: 12, step: passA[12] });
    expect((await c.nextOf('score', 'live-a')).t).toBe(12);
    c.close();
  });

  it('caps each trajectory at the per-session step limit in the worker, naming the run', async () => {
    const steps = await readSteps(OTHER[0]!);
    const r = await rank(limited, { runs: [{ trajectory: steps.slice(0, 10) }, { trajectory: steps.slice(0, 30) }] });
    expect(r).toEqual({ status: 413, body: { error: { code: 'too_large', message: 'runs[1].trajectory: 30 steps exceed the limit of 20 steps' } } });
  });
});
