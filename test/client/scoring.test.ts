import { beforeAll, describe, expect, it } from 'vitest';
import { connect, SteplensClientError, type ScoreFrame, type SignalFrame } from '../../src/client/index.js';
import { resolvePolicy } from '../../src/core/policy.js';
import { priorFromPtas } from '../../src/core/prior.js';
import { ptaFromJson } from '../../src/core/pta/index.js';
import { scoreSteps } from '../../src/core/scorer.js';
import type { Step } from '../../src/core/types.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { ASTROID, CORPUS, readDoc, readEvents, readSteps, useApp } from '../server/helpers.js';

/** A real run (mini-swe-agent 2.2.7 + deepseek-chat, not resolved) with a blind-retry episode over steps 5, 7, 9, 11. */
const DJANGO = `${CORPUS}/SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/django__django-13401/django__django-13401.traj.json`;

const app = useApp();
let failSteps: Step[];

beforeAll(async () => {
  for (const file of [ASTROID.passA, ASTROID.passB]) {
    const res = await fetch(`${app().url}/v1/tasks/${ASTROID.task}/references`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ trajectory: await readDoc(file) }),
    });
    expect(res.status).toBe(201);
  }
  failSteps = await readSteps(ASTROID.fail);
});

async function batchOnPta() {
  const pta = ptaFromJson(await (await fetch(`${app().url}/v1/tasks/${ASTROID.task}/pta`)).text());
  if (!pta.ok) throw new Error(pta.error);
  return scoreSteps(failSteps, { reference: { kind: 'pta', pta: pta.value }, analyzers: defaultAnalyzers() });
}

describe('client scoring', () => {
  it('streams steplens steps one by one: each step resolves with its batch score, the final equals POST /v1/score', async () => {
    const batch = await batchOnPta();
    const client = await connect(app().url);
    const session = await client.start({ task: ASTROID.task });
    expect(session.reference).toMatchObject({ kind: 'pta', version: 2 });
    expect(session.id).toMatch(/^c-/);
    for (const [i, step] of failSteps.entries()) {
      const frames = await session.step(step);
      const expected = batch.results[i]!;
      expect(frames.map((f) => ({ seq: f.seq, t: f.t, stage: f.stage, score: f.score, reward: f.reward, tier: f.tier }))).toEqual([
        { seq: i, t: i, stage: expected.state.stage, score: expected.score, reward: expected.reward, tier: expected.tier },
      ]);
      expect(session.score).toBe(frames[0]);
    }
    session.outcome(false);
    const final = await session.end();
    const res = await fetch(`${app().url}/v1/score`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ task: ASTROID.task, trajectory: await readDoc(ASTROID.fail), passed: false }),
    });
    const { type, session: id, passed, reason, ...report } = final;
    expect([type, id, passed, reason]).toEqual(['final', session.id, false, 'end']);
    expect(report).toEqual(await res.json());
    expect(await session.end()).toBe(final);
    await expect(session.step(failSteps[0])).rejects.toMatchObject({ code: 'bad_message' });
    await client.close();
  });

  it('pipelines raw mini-swe-agent events: the same scores as scoreSteps, each seq resolving with its own frames', async () => {
    const batch = await batchOnPta();
    const events = await readEvents(ASTROID.fail);
    const client = await connect(app().wsUrl);
    const session = await client.start({ task: ASTROID.task, format: 'mini-swe-agent', session: 'client-raw' });
    const seen: ScoreFrame[] = [];
    session.onScore((f) => seen.push(f));
    const answers = await Promise.all(events.map((e) => session.step(e)));
    answers.forEach((frames, seq) => expect(frames.every((f) => f.seq === seq)).toBe(true));
    expect(answers.some((frames) => frames.length === 0)).toBe(true);
    const final = await session.end();
    expect(seen).toEqual(session.scores);
    expect(session.scores.map((f) => f.t)).toEqual(failSteps.map((_, i) => i));
    expect(session.scores.map((f) => f.score)).toEqual(batch.results.map((r) => r.score));
    expect(answers.flat()).toEqual(session.scores.slice(0, answers.flat().length));
    expect(final.score).toEqual(batch.report.score);
    await client.close();
  });

  it('delivers signals through onSignal, in order and once, as the batch scorer fires them', async () => {
    const steps = await readSteps(DJANGO);
    const policyInput = { explorationStreak: { warn: 5, stop: 10 } };
    const policy = resolvePolicy(policyInput);
    if (!policy.ok) throw new Error(policy.error);
    // The server scores a task without a PTA against the prior pooled from its stored PTAs (the astroid one here).
    const astroid = ptaFromJson(await (await fetch(`${app().url}/v1/tasks/${ASTROID.task}/pta`)).text());
    if (!astroid.ok) throw new Error(astroid.error);
    const prior = priorFromPtas([astroid.value]);
    const batch = scoreSteps(steps, { reference: { kind: 'prior', prior }, analyzers: defaultAnalyzers(), policy: policy.value });
    const client = await connect(app().url);
    const session = await client.start({ task: 'django__django-13401', policy: policyInput });
    const signals: SignalFrame[] = [];
    session.onSignal((s) => signals.push(s));
    await Promise.all(steps.map((s) => session.step(s)));
    expect(signals.map((s) => [s.kind, s.severity, s.t])).toEqual(batch.report.signals.map((s) => [s.kind, s.severity, s.t]));
    // The scripts the agent writes (test_issue.py at 4, test_field_equality.py at 12, test_abstract_fields.py at 16)
    // break the streak, the pip installs (O) at 6, 8, 10 neither extend nor break it: the first five exploration steps
    // in a row come after the last script, and no streak reaches ten.
    expect(signals.find((s) => s.kind === 'exploration_streak')).toMatchObject({ severity: 'warn', t: 21, steps: [17, 18, 19, 20, 21] });
    expect(signals.some((s) => s.kind === 'exploration_streak' && s.severity === 'stop')).toBe(false);
    expect(session.signals).toEqual(signals);
    await session.end();
    await client.close();
  });

  it('keeps two signals of one kind at one step (a budget of steps and one of tokens), each once', async () => {
    const steps = (await readSteps(DJANGO)).slice(0, 3);
    const astroid = ptaFromJson(await (await fetch(`${app().url}/v1/tasks/${ASTROID.task}/pta`)).text());
    if (!astroid.ok) throw new Error(astroid.error);
    const reference = { kind: 'prior' as const, prior: priorFromPtas([astroid.value]) };
    // A token budget the first step stays within and the second passes: it fires at step 1, as the step budget does.
    const cost0 = scoreSteps(steps, { reference, analyzers: defaultAnalyzers() }).results[0]!.state.cost;
    const policyInput = { budget: { maxSteps: 1, maxTokens: Math.ceil(cost0), severity: 'warn' as const } };
    const policy = resolvePolicy(policyInput);
    if (!policy.ok) throw new Error(policy.error);
    const batch = scoreSteps(steps, { reference, analyzers: defaultAnalyzers(), policy: policy.value });
    const budgets = batch.report.signals.filter((s) => s.kind === 'budget');
    // The batch scorer fires both budgets at one step: what the client must keep apart.
    expect(new Set(budgets.map((s) => s.t)).size).toBeLessThan(budgets.length);
    const client = await connect(app().url);
    const session = await client.start({ task: 'django__django-13401', policy: policyInput });
    const heard: SignalFrame[] = [];
    session.onSignal((s) => heard.push(s));
    for (const step of steps) await session.step(step);
    expect(heard.map((s) => [s.kind, s.t, s.message])).toEqual(budgets.map((s) => [s.kind, s.t, s.message]));
    expect(session.signals.filter((s) => s.kind === 'budget')).toEqual(heard);
    await session.end();
    await client.close();
  });

  it("rejects start with the server's error code, and a refused step with its seq (which the next step reuses)", async () => {
    const client = await connect(app().url);
    const refused = await client.start({ task: ASTROID.task, policy: { blindRetry: { stop: -1 } } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SteplensClientError);
    expect(refused).toMatchObject({ code: 'bad_message', message: expect.stringMatching(/policy/) });
    await client.start({ task: ASTROID.task, session: 'held' });
    const other = await connect(app().url);
    await expect(other.start({ task: ASTROID.task, session: 'held' })).rejects.toMatchObject({ code: 'duplicate_session' });
    const session = await other.start({ task: ASTROID.task });
    await expect(session.step({ t: 0, tool: 'bash', action: { kind: 'nope' } })).rejects.toMatchObject({
      code: 'bad_message',
      seq: 0,
      message: expect.stringMatching(/^step\.action/),
    });
    const [frame] = await session.step(failSteps[0]);
    expect(frame).toMatchObject({ seq: 0, t: 0 });
    await client.close();
    await other.close();
    await expect(other.ping()).rejects.toMatchObject({ code: 'closed' });
  });
});
