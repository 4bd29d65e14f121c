/**
 * Policies per agent and model, and shadow mode, end to end over real sockets with real corpus runs:
 * a policy set written by `steplens calibrate --by` and loaded by `serve --policy` picks each session's
 * policy from its start.agent; with --shadow, a pair only warns until a candidate stop's upper bound
 * holds on the outcomes its sessions report, then that stop is in force for all but a share of its
 * sessions; counters, promotion, pins and freezes show on GET /v1/policies and /metrics and survive a restart.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverConfig } from '../../src/server/config.js';
import type { Step } from '../../src/core/types.js';
import type { PairStatus, PoliciesStatus } from '../../src/server/policy-status.js';
import { cli } from '../cli/run-cli.js';
import { CORPUS, Client, readSteps, removeDir, startApp, tempDir, type Frame, type Running } from './helpers.js';

const DOUBAO = `${CORPUS}/multi-swe-bench__experiments/evaluation/java/verified/20240825_SWE-agent_doubao-pro-128k/trajs/fasterxml__jackson-core-1142.traj`;
const GPT5 = [
  'christsakm__Trajectories/GOOD_EXAMPLES/bokeh__bokeh-13370/trace_01_gpt-5-2025-08-07/bokeh__bokeh-13370.traj',
  'christsakm__Trajectories/GOOD_EXAMPLES/facebookresearch__hydra-1915/trace_01_gpt-5-2025-08-07/facebookresearch__hydra-1915.traj',
  'christsakm__Trajectories/GOOD_EXAMPLES/getmoto__moto-6510/trace_01_gpt-5-2025-08-07/getmoto__moto-6510.traj',
  'christsakm__Trajectories/TODO/dask__dask-8685/trace_01_gpt-5-2025-08-07/dask__dask-8685.traj',
  'christsakm__Trajectories/DONE/getmoto__moto-4799/trace_01_gpt-5-2025-08-07/getmoto__moto-4799.traj',
].map((p) => `${CORPUS}/${p}`);

let counter = 0;
/** Streams a run in a new session (outcome if given), ends it; returns its signal frames. */
async function runSession(c: Client, steps: readonly Step[], start: Record<string, unknown>, passed?: boolean): Promise<{ id: string; signals: Frame[] }> {
  const id = `p${++counter}`;
  c.send({ type: 'start', session: id, task: 'org__repo-1', ...start });
  await c.nextOf('started', id);
  steps.forEach((step, seq) => c.send({ type: 'step', session: id, seq, step }));
  if (passed !== undefined) c.send({ type: 'outcome', session: id, passed });
  c.send({ type: 'end', session: id });
  await c.nextOf('final', id);
  const signals = c.frames.filter((f) => f.session === id && f.type === 'signal');
  c.frames.splice(0, c.frames.length, ...c.frames.filter((f) => f.session !== id));
  return { id, signals };
}
/** The first stop signal (a client stops there; the server keeps scoring what it is sent). */
const stops = (signals: Frame[]) =>
  signals
    .filter((s) => s.severity === 'stop')
    .slice(0, 1)
    .map((s) => `${String(s.kind)}@${String(s.t)}`);

/** A session's status (GET /v1/sessions/:id), the fields read here. */
type SessionDoc = { policy: { selected: string; shadow: boolean } };
type ErrorDoc = { error: { code: string; message: string } };

/** Fetches a JSON document; `T` is the shape the route answers (the tests check the fields they read). */
async function json<T>(url: string, init?: RequestInit): Promise<{ status: number; body: T }> {
  const r = await fetch(url, init);
  return { status: r.status, body: (await r.json()) as T };
}
const post = <T>(url: string, body: unknown) => json<T>(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const pairOf = (doc: PoliciesStatus, agent: string) => doc.pairs.find((p) => p.agent === agent);

describe('policies per agent and model: calibrate --by agent, serve --policy', () => {
  let dir: string;
  let srv: Running;
  let c: Client;
  beforeAll(async () => {
    dir = await tempDir();
    const file = join(dir, 'policies.json');
    // 35 passing corpus runs: loose bounds, so some groups get stops (the point here is the plumbing).
    const run = await cli('calibrate', `${CORPUS}/`, '--by', 'agent', '--max-false-stop', '0.6', '--max-false-warn', '0.8', '--split', 'none', '--out', file);
    if (run.code !== 0) throw new Error(run.stderr);
    const config = await serverConfig(['--policy', file, '--data', join(dir, 'data'), '--no-seed', '--log-level', 'silent'], {}, dir);
    srv = await startApp(config.app);
    c = await Client.connect(srv.wsUrl);
  }, 180_000); // calibrate over the corpus: about 10 s of CPU, longer while other workers share the cores
  afterAll(async () => {
    c?.close();
    await srv?.app.close();
    await removeDir(dir);
  });

  it("each session runs under its agent group's policy, else the fallback, and says which", async () => {
    const steps = await readSteps(DOUBAO);
    const swe = await runSession(c, steps, { agent: 'SWE-Agent', model: 'doubao-pro-128k' });
    expect(stops(swe.signals)).toEqual(['no_action@1']);
    const oh = await runSession(c, steps, { agent: 'openhands' });
    expect(stops(oh.signals)).toEqual([]);
    const other = await runSession(c, steps, { agent: 'some-other-agent' });
    expect(stops(other.signals)).toEqual(['no_action@1']);
    const status = async (id: string) => (await json<SessionDoc>(`${srv.url}/v1/sessions/${id}`)).body.policy;
    expect(await status(swe.id)).toEqual({ selected: 'group agent=swe-agent', shadow: false });
    expect(await status(oh.id)).toEqual({ selected: 'group agent=openhands', shadow: false });
    expect(await status(other.id)).toEqual({ selected: 'fallback', shadow: false });
    const doc = (await json<PoliciesStatus>(`${srv.url}/v1/policies`)).body;
    expect(doc.shadow).toEqual({ enabled: false });
    expect(doc.configured.groups.map((g) => g.match.agent)).toContain('openhands');
    expect(pairOf(doc, 'SWE-Agent')).toMatchObject({ state: 'configured', group: 'group agent=swe-agent', sessions: 1 });
  }, 120_000);
});

describe('shadow mode: counters, promotion, share, pin, freeze, persistence', () => {
  let dir: string;
  let srv: Running | undefined;
  let c: Client | undefined;
  let passing: Step[][];
  let failing: Step[];
  // 5 passing runs with none stopped: Clopper-Pearson 95 % upper bound 45.1 %, within a 50 % bound.
  const options = () => ({ dataDir: dir, seedDirs: [], shadow: { share: 0.5, maxFalseStop: 0.5 } });
  const who = { agent: 'shadow-agent', model: 'shadow-model' };
  beforeAll(async () => {
    dir = await tempDir();
    passing = await Promise.all(GPT5.map(readSteps));
    failing = await readSteps(DOUBAO);
    srv = await startApp(options());
    c = await Client.connect(srv.wsUrl);
  });
  afterAll(async () => {
    c?.close();
    await srv?.app.close();
    await removeDir(dir);
  });

  it('only warns until a candidate qualifies, then promotes it; enforced sessions stop, the shadow share does not', async () => {
    for (const steps of passing) expect(stops((await runSession(c!, steps, who, true)).signals)).toEqual([]);
    let doc = (await json<PoliciesStatus>(`${srv!.url}/v1/policies`)).body;
    expect(pairOf(doc, 'shadow-agent')).toMatchObject({ state: 'shadow', promoted: null, runs: { passing: 5, failing: 0 } });
    // `noAction 2` would stop this run at its 2nd empty turn; in shadow it only warns (the default policy stops nothing).
    const first = await runSession(c!, failing, who, false);
    expect(stops(first.signals)).toEqual([]);
    expect(first.signals.some((s) => s.kind === 'no_action' && s.severity === 'warn')).toBe(true);
    doc = (await json<PoliciesStatus>(`${srv!.url}/v1/policies`)).body;
    const pair = pairOf(doc, 'shadow-agent')!;
    // The configured default stops nothing (every kind only warns since stop 42); the single-kind candidate
    // `noAction 2` saves most within the bound: it is the one promoted.
    expect(pair).toMatchObject({ state: 'promoted', promoted: 'noAction 2', sessions: 6, runs: { passing: 5, failing: 1 } });
    const cand = pair.candidates.find((x) => x.id === 'noAction 2')!;
    expect(cand).toMatchObject({ passingStopped: 0, failingStopped: 1, failingStepsSaved: failing.length - 2, eligible: true });
    expect(cand.falseStopUpper).toBeCloseTo(1 - 0.05 ** (1 / 5), 6);
    // audit24: the shares' denominators are in the answer (the failing runs' steps and tokens), every share their quotient.
    expect(pair.runs.failingSteps).toBe(failing.length);
    expect(pair.runs.failingTokens).toBeGreaterThan(0);
    for (const x of pair.candidates) {
      expect(x.failingStepsShare).toBeCloseTo(x.failingStepsSaved / pair.runs.failingSteps, 12);
      expect(x.failingTokenShare).toBeCloseTo(x.failingTokensSaved / pair.runs.failingTokens, 12);
    }
    expect(pair.policy.noAction.stop).toBe(2);
    // Its six turns without an action are no blind retries (a constant "no action" hash says nothing was repeated).
    expect(pair.candidates.find((x) => x.id === 'blindRetry 2')).toMatchObject({ failingStopped: 0, passingStopped: 0 });
    // Session 7 is enforced (share 0.5: every 2nd session stays in shadow), session 8 is in shadow.
    const enforced = await runSession(c!, failing, who, false);
    expect(stops(enforced.signals)).toEqual(['no_action@1']);
    expect((await json<SessionDoc>(`${srv!.url}/v1/sessions/${enforced.id}`)).body.policy).toEqual({ selected: 'fallback, promoted noAction 2', shadow: false });
    const shadowed = await runSession(c!, failing, who, false);
    expect(stops(shadowed.signals)).toEqual([]);
    expect((await json<SessionDoc>(`${srv!.url}/v1/sessions/${shadowed.id}`)).body.policy).toEqual({ selected: 'fallback, shadow share (warn only)', shadow: true });
    // Only the shadow session was counted.
    expect(pairOf((await json<PoliciesStatus>(`${srv!.url}/v1/policies`)).body, 'shadow-agent')?.runs).toEqual({
      passing: 5,
      failing: 2,
      failingSteps: 2 * failing.length,
      failingTokens: 2 * pair.runs.failingTokens,
    });
  }, 120_000);

  it('shows the counters on /metrics', async () => {
    const text = await (await fetch(`${srv!.url}/metrics`)).text();
    expect(text).toContain('steplens_shadow_runs{tenant="default",agent="shadow-agent",model="shadow-model",outcome="pass"} 5');
    expect(text).toContain('steplens_shadow_runs{tenant="default",agent="shadow-agent",model="shadow-model",outcome="fail"} 2');
    expect(text).toContain('steplens_policy_in_force{tenant="default",agent="shadow-agent",model="shadow-model",state="promoted",candidate="noAction 2"} 1');
    expect(text).toContain('steplens_shadow_failing_stopped{tenant="default",agent="shadow-agent",model="shadow-model",candidate="noAction 2"} 2');
    expect(text).toMatch(/steplens_shadow_false_stop_upper\{tenant="default",agent="shadow-agent",model="shadow-model",candidate="noAction 2"\} 0\.45/);
  });

  it('an operator pin overrides the promotion, a freeze holds it; bad bodies are refused naming the field', async () => {
    const pinned = await post<PairStatus>(`${srv!.url}/v1/policies/pin`, { ...who, policy: { noAction: { stop: null } } });
    expect(pinned.status).toBe(200);
    expect(pinned.body).toMatchObject({ state: 'pinned', promoted: 'noAction 2', pinned: { noAction: { stop: null } } });
    expect(pinned.body.policy.noAction.stop).toBeNull();
    const s9 = await runSession(c!, failing, who); // session 9: not in the shadow share, runs the pinned policy
    expect(stops(s9.signals)).toEqual([]);
    expect((await json<SessionDoc>(`${srv!.url}/v1/sessions/${s9.id}`)).body.policy.selected).toBe('pinned');
    expect((await post<PairStatus>(`${srv!.url}/v1/policies/pin`, { ...who, policy: null })).body.state).toBe('promoted');
    expect((await post(`${srv!.url}/v1/policies/freeze`, { ...who, frozen: true })).body).toMatchObject({ frozen: true, state: 'promoted' });
    const bad = await post<ErrorDoc>(`${srv!.url}/v1/policies/pin`, { ...who, policy: { blindRetry: { warn: 9, stop: 3 } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('blindRetry.warn (9) must be below blindRetry.stop (3)');
    const noFlag = await post<ErrorDoc>(`${srv!.url}/v1/policies/freeze`, who);
    expect(noFlag.status).toBe(400);
    expect(noFlag.body.error.message).toContain('body.frozen');
  });

  it('keeps counters, the promotion and the freeze across a restart', async () => {
    c!.close();
    await srv!.app.close();
    srv = await startApp(options());
    c = await Client.connect(srv.wsUrl);
    const pair = pairOf((await json<PoliciesStatus>(`${srv.url}/v1/policies`)).body, 'shadow-agent');
    expect(pair).toMatchObject({ state: 'promoted', promoted: 'noAction 2', frozen: true, pinned: null, sessions: 9, runs: { passing: 5, failing: 2 } });
    const s10 = await runSession(c, failing, who, false); // session 10: shadow share
    expect(stops(s10.signals)).toEqual([]);
    const s11 = await runSession(c, failing, who); // session 11: enforced, the promoted stop survived
    expect(stops(s11.signals)).toEqual(['no_action@1']);
  }, 60_000);
});
