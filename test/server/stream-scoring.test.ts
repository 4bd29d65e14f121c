import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scoreSteps } from '../../src/core/scorer.js';
import { ptaFromJson } from '../../src/core/pta/index.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { serverMessageSchema } from '../../src/protocol/server-messages.js';
import type { Step } from '../../src/core/types.js';
import { ASTROID, Client, readDoc, readEvents, readSteps, removeDir, startApp, tempDir, type Running } from './helpers.js';

let dir: string;
let srv: Running;
let failSteps: Step[];

beforeAll(async () => {
  dir = await tempDir();
  srv = await startApp({ dataDir: dir });
  for (const file of [ASTROID.passA, ASTROID.passB]) {
    const res = await fetch(`${srv.url}/v1/tasks/${ASTROID.task}/references`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ trajectory: await readDoc(file) }),
    });
    expect(res.status).toBe(201);
  }
  failSteps = await readSteps(ASTROID.fail);
});

afterAll(async () => {
  await srv.app.close();
  await removeDir(dir);
});

async function ptaNow() {
  const res = await fetch(`${srv.url}/v1/tasks/${ASTROID.task}/pta`);
  const pta = ptaFromJson(await res.text());
  if (!pta.ok) throw new Error(pta.error);
  return pta.value;
}

describe('streaming a real trajectory', () => {
  it('streams scores equal to the batch prefix scores, and a final equal to POST /v1/score', async () => {
    const pta = await ptaNow();
    expect(pta.references).toHaveLength(2);
    const batch = scoreSteps(failSteps, { reference: { kind: 'pta', pta }, analyzers: defaultAnalyzers() });
    const c = await Client.connect(srv.wsUrl);
    c.send({ type: 'start', session: 'run-1', task: ASTROID.task });
    const started = await c.nextOf('started', 'run-1');
    expect(started.reference).toEqual({ kind: 'pta', version: 2, paths: expect.any(Number) });
    failSteps.forEach((step, seq) => c.send({ type: 'step', session: 'run-1', seq, step }));
    for (let i = 0; i < failSteps.length; i++) {
      const score = await c.nextOf('score', 'run-1');
      expect(serverMessageSchema.safeParse(score).success).toBe(true);
      const expected = batch.results[i]!;
      expect({ seq: score.seq, t: score.t, stage: score.stage, score: score.score, reward: score.reward, tier: score.tier }).toEqual({
        seq: i,
        t: i,
        stage: expected.state.stage,
        score: expected.score,
        reward: expected.reward,
        tier: expected.tier,
      });
    }
    const streamedSignals = c.frames.filter((f) => f.type === 'signal');
    expect(streamedSignals.map((s) => [s.kind, s.t])).toEqual(batch.report.signals.map((s) => [s.kind, s.t]));
    c.send({ type: 'outcome', session: 'run-1', passed: false });
    c.send({ type: 'end', session: 'run-1' });
    const final = await c.nextOf('final', 'run-1');
    expect(serverMessageSchema.safeParse(final).success).toBe(true);
    const res = await fetch(`${srv.url}/v1/score`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ task: ASTROID.task, trajectory: await readDoc(ASTROID.fail), passed: false }),
    });
    expect(res.status).toBe(200);
    const { type, session, passed, reason, ...report } = final;
    expect([type, session, passed, reason]).toEqual(['final', 'run-1', false, 'end']);
    expect(report).toEqual(await res.json());
    expect(report.steps).toBe(failSteps.length);
    c.close();
  });

  it('accepts raw mini-swe-agent events and pairs them, with the same scores as steplens steps', async () => {
    const pta = await ptaNow();
    const batch = scoreSteps(failSteps, { reference: { kind: 'pta', pta }, analyzers: defaultAnalyzers() });
    const events = await readEvents(ASTROID.fail);
    const c = await Client.connect(srv.wsUrl);
    c.send({ type: 'start', session: 'raw-1', task: ASTROID.task, format: 'mini-swe-agent' });
    await c.nextOf('started', 'raw-1');
    events.forEach((step, seq) => c.send({ type: 'step', session: 'raw-1', seq, step }));
    c.send({ type: 'end', session: 'raw-1' });
    const final = await c.nextOf('final', 'raw-1');
    const scores = c.frames.filter((f) => f.type === 'score');
    expect(scores.map((s) => s.score)).toEqual(batch.results.map((r) => r.score));
    const seqs = scores.map((s) => s.seq as number);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(Math.max(...seqs)).toBeLessThan(events.length);
    expect(final.score).toEqual(batch.report.score);
    c.close();
  });

  it('carries several sessions on one connection independently', async () => {
    const c = await Client.connect(srv.wsUrl);
    const ids = ['multi-a', 'multi-b', 'multi-c'];
    for (const id of ids) c.send({ type: 'start', session: id, task: ASTROID.task });
    for (const id of ids) await c.nextOf('started', id);
    const n = 6;
    for (let seq = 0; seq < n; seq++) for (const id of ids) c.send({ type: 'step', session: id, seq, step: failSteps[seq] });
    for (const id of ids) c.send({ type: 'end', session: id });
    const finals = await Promise.all(ids.map((id) => c.nextOf('final', id)));
    expect(finals.map((f) => f.steps)).toEqual([n, n, n]);
    expect(finals[0]!.score).toEqual(finals[1]!.score);
    c.close();
  });

  it('makes an id when start names none, and answers ping', async () => {
    const c = await Client.connect(srv.wsUrl);
    c.send({ type: 'start', task: 'some-task-without-pta' });
    const started = await c.nextOf('started');
    expect(typeof started.session).toBe('string');
    expect(started.reference).toEqual({ kind: 'prior' });
    await c.sync();
    c.close();
  });
});
