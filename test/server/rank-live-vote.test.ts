/**
 * A vote over live sessions (issue 26 item 3; docs/rank.md): a session's `end` carries the run's final patch, the
 * final keeps its class (not its text), and `POST /v1/rank` with `"basis": "vote"` ranks such sessions, mixed with
 * trajectories, exactly as it ranks the same runs given as trajectories. On real corpus runs: facebookresearch__hydra-1915
 * (three SWE-agent runs, two submit the same change) and fasterxml__jackson-databind-4486 (five; three submit one
 * change, two submit none and are ranked by their edits). Bad patches get one error each and lose nothing.
 */
import { describe, expect, it } from 'vitest';
import { createFinalPatchTracker, normalisedDiff } from '../../src/core/rank/final-patch.js';
import { patchClass } from '../../src/core/rank/patch-class.js';
import { labelSteps } from '../../src/core/state-builder.js';
import type { Step } from '../../src/core/types.js';
import { MAX_END_PATCH_CHARS } from '../../src/protocol/client-messages.js';
import type { RankResponse } from '../../src/protocol/rank-bodies.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { Client, CORPUS, readDoc, readSteps, useApp, type Frame } from './helpers.js';

const analyzers = defaultAnalyzers();
const HYDRA_TASK = 'facebookresearch__hydra-1915';
const HYDRA = ['trace_01_gpt-5-2025-08-07', 'trace_02_kimi-k2-instruct-0905', 'trace_03_qwen3-coder-480b-a35b-instruct'].map((t) => ({
  id: t,
  file: `${CORPUS}/christsakm__Trajectories/GOOD_EXAMPLES/${HYDRA_TASK}/${t}/${HYDRA_TASK}.traj`,
}));
const JACKSON_TASK = 'fasterxml__jackson-databind-4486';
const JACKSON = ['deepseek-chat-v2', 'deepseek-coder-v2', 'doubao-pro-128k', 'gpt-4o-2024-05-13', 'gpt-4o-mini-2024-07-18'].map((m) => ({
  id: m,
  file: `${CORPUS}/multi-swe-bench__experiments/evaluation/java/verified/20240825_SWE-agent_${m}/trajs/${JACKSON_TASK}.traj`,
}));

/** The diff the run's last finish step printed, where final-patch.ts takes it (what its driver would send with end). */
function submittedDiff(steps: Step[]): string | undefined {
  let out: string | undefined;
  labelSteps(steps, analyzers).forEach(({ state }, i) => {
    const seen = steps[i]!.observation;
    if (state.kind === 'finish' && seen !== undefined && normalisedDiff(seen) !== null) out = seen;
  });
  return out;
}

/** The run's normalised final patch as the trajectory path reads it. */
function finalPatch(steps: Step[]): string[] {
  const t = createFinalPatchTracker();
  labelSteps(steps, analyzers).forEach(({ label, state }, i) => t.add(steps[i]!, state, label));
  return t.value();
}

/** Streams a run as session `id` of `task`; `end` (when given) is what its end message carries besides type and session. */
async function stream(c: Client, id: string, task: string, steps: Step[], end?: Record<string, unknown>): Promise<Frame | undefined> {
  c.send({ type: 'start', session: id, task });
  await c.nextOf('started', id);
  steps.forEach((step, seq) => c.send({ type: 'step', session: id, seq, step }));
  for (const _ of steps) await c.nextOf('score', id);
  if (end === undefined) return undefined;
  c.send({ type: 'end', session: id, ...end });
  return c.nextOf('final', id);
}

interface Answer extends Partial<RankResponse> {
  error?: { code: string; message: string };
}

describe('POST /v1/rank, basis vote, over sessions whose end carried the patch', () => {
  const srv = useApp({ scoringWorkers: 1 });
  const rank = async (body: unknown): Promise<{ status: number; body: Answer }> => {
    const res = await fetch(`${srv().url}/v1/rank`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Answer };
  };
  const same = (r: Answer) => r.runs!.map(({ index: _index, ...x }) => x);

  it("refuses a trajectory whose final patch's lines, each with its path, come past MAX_CLASS_CHARS, naming the run (T55)", async () => {
    const path = `src/${'p'.repeat(1000)}.py`;
    const diff = (lines: number) => `diff --git a/${path} b/${path}\n@@ -1 +1 @@\n` + '+x\n'.repeat(lines);
    const run = (lines: number) => [
      { t: 0, tool: 'bash', action: { kind: 'shell', command: 'git diff' }, observation: 'ok' },
      { t: 1, tool: 'submit', action: { kind: 'finish' }, observation: diff(lines) },
    ];
    const small = await rank({ basis: 'vote', task: 'long-path', runs: [{ trajectory: run(3), id: 'small' }] });
    expect([small.status, small.body.runs?.[0]?.vote]).toEqual([200, 1]);
    // 170,000 copies of one line with its 1,006-character path: 171 M characters to list (1.5 s of the worker before).
    const big = await rank({
      basis: 'vote',
      task: 'long-path',
      runs: [
        { trajectory: run(3), id: 'small' },
        { trajectory: run(170_000), id: 'big' },
      ],
    });
    expect(big.status).toBe(400);
    expect(big.body.error).toMatchObject({ code: 'bad_input', message: expect.stringMatching(/^runs\[1\]: its final patch: its normalised source lines come to 171\d{6} characters/) as string });
  });

  it('ranks live sessions as it ranks the same runs given as trajectories (hydra-1915), and the final keeps the class only', async () => {
    const c = await Client.connect(srv().wsUrl);
    const runs = await Promise.all(HYDRA.map(async (r) => ({ ...r, doc: await readDoc(r.file), steps: await readSteps(r.file) })));
    for (const r of runs) {
      const diff = submittedDiff(r.steps)!;
      expect(diff, r.id).toBeDefined();
      const final = await stream(c, `hydra-${r.id}`, HYDRA_TASK, r.steps, { patch: diff });
      // The class of the diff as the trajectory path reads it, and not the text.
      expect(final!.patch, r.id).toEqual(patchClass(finalPatch(r.steps)));
      expect(JSON.stringify(final)).not.toContain('diff --git');
      // The session's step view carries the final with it.
      const view = (await (await fetch(`${srv().url}/v1/sessions/hydra-${r.id}/steps`)).json()) as { final?: { patch?: unknown } };
      expect(view.final?.patch, r.id).toEqual(final!.patch);
    }
    const files = await rank({ basis: 'vote', runs: runs.map((r) => ({ trajectory: r.doc, id: r.id })) });
    expect(files.status).toBe(200);
    expect(files.body.runs!.map((x) => [x.id, x.vote])).toEqual([
      ['trace_03_qwen3-coder-480b-a35b-instruct', 2],
      ['trace_01_gpt-5-2025-08-07', 2],
      ['trace_02_kimi-k2-instruct-0905', 1],
    ]);
    const live = await rank({ basis: 'vote', runs: runs.map((r) => ({ session: `hydra-${r.id}`, id: r.id })) });
    expect(live.status).toBe(200);
    expect(live.body.by).toBe('vote');
    expect(same(live.body)).toEqual(same(files.body));
    c.close();
  });

  it('mixes sessions and trajectories in one vote (jackson-databind-4486): the order of five trajectories', async () => {
    const c = await Client.connect(srv().wsUrl);
    const runs = await Promise.all(JACKSON.map(async (r) => ({ ...r, doc: await readDoc(r.file), steps: await readSteps(r.file) })));
    const body: unknown[] = [];
    for (const r of runs) {
      const diff = submittedDiff(r.steps);
      if (diff === undefined) {
        body.push({ trajectory: r.doc, id: r.id }); // no diff submitted: the run's patch is its edits, read from its steps
        continue;
      }
      await stream(c, `jackson-${r.id}`, JACKSON_TASK, r.steps, { patch: diff });
      body.push({ session: `jackson-${r.id}`, id: r.id });
    }
    expect(body.filter((b) => 'session' in (b as object))).toHaveLength(3);
    // These logs name no task: the body's names it for them, as a session's start does.
    const files = await rank({ basis: 'vote', task: JACKSON_TASK, runs: runs.map((r) => ({ trajectory: r.doc, id: r.id })) });
    const mixed = await rank({ basis: 'vote', task: JACKSON_TASK, runs: body });
    expect(mixed.status).toBe(200);
    expect(mixed.body.runs!.map((x) => [x.id, x.vote])).toEqual([
      ['deepseek-chat-v2', 3],
      ['deepseek-coder-v2', 3],
      ['gpt-4o-mini-2024-07-18', 3],
      ['doubao-pro-128k', 1],
      ['gpt-4o-2024-05-13', 1],
    ]);
    expect(same(mixed.body)).toEqual(same(files.body));
    c.close();
  });

  it('an empty patch changes no source: vote 0, last', async () => {
    const c = await Client.connect(srv().wsUrl);
    const [a, b] = await Promise.all(HYDRA.slice(0, 2).map(async (r) => ({ ...r, steps: await readSteps(r.file) })));
    const final = await stream(c, 'empty-a', HYDRA_TASK, a!.steps, { patch: '' });
    expect(final!.patch).toEqual({ key: null, lines: 0 });
    await stream(c, 'empty-b', HYDRA_TASK, b!.steps, { patch: submittedDiff(b!.steps) });
    const r = await rank({ basis: 'vote', runs: [{ session: 'empty-a' }, { session: 'empty-b' }] });
    expect(r.body.runs!.map((x) => [x.id, x.vote])).toEqual([
      ['empty-b', 1],
      ['empty-a', 0],
    ]);
    c.close();
  });

  it('refuses by name a session that is open or ended without a patch; the same sessions rank by the composite', async () => {
    const c = await Client.connect(srv().wsUrl);
    const [a, b, q] = await Promise.all(HYDRA.map(async (r) => ({ ...r, doc: await readDoc(r.file), steps: await readSteps(r.file) })));
    await stream(c, 'bare', HYDRA_TASK, a!.steps, {});
    await stream(c, 'open', HYDRA_TASK, b!.steps);
    const r = await rank({ basis: 'vote', runs: [{ trajectory: q!.doc }, { session: 'bare' }, { session: 'open' }] });
    expect(r).toEqual({
      status: 400,
      body: {
        error: {
          code: 'bad_input',
          message:
            'cannot rank by vote: no final patch is known for bare, open (a session keeps no step text: end it with its patch (the end message\'s "patch", the git diff of its work), or give its trajectory)',
        },
      },
    });
    expect((await rank({ runs: [{ trajectory: q!.doc }, { session: 'bare' }, { session: 'open' }] })).body.by).toBe('reference-free');
    c.close();
  });

  it('refuses a bad patch with one error naming it, and loses nothing: the session ends after with every step', async () => {
    const c = await Client.connect(srv().wsUrl);
    const run = HYDRA[0]!;
    const steps = await readSteps(run.file);
    const diff = submittedDiff(steps)!;
    await stream(c, 'bad', HYDRA_TASK, steps);
    const refused = async (patch: unknown): Promise<Frame> => {
      c.send({ type: 'end', session: 'bad', patch });
      return c.nextOf('error', 'bad');
    };
    expect(await refused(42)).toMatchObject({
      code: 'bad_message',
      message: 'end.patch: expected a string: the unified diff of the run\'s final work (git diff), "" for none',
    });
    expect(await refused('x'.repeat(MAX_END_PATCH_CHARS + 1))).toMatchObject({
      code: 'bad_message',
      message: `end.patch: at most ${MAX_END_PATCH_CHARS} characters (the session stays open: send end again with a shorter patch, or none)`,
    });
    expect(await refused('M src/a.py\n+x = 1\n')).toMatchObject({
      code: 'bad_message',
      message: "end.patch: holds no 'diff --git' header: send the output of git diff (an empty string: no change); the session stays open: send end again",
    });
    // Still open, every step kept; the end with the run's patch then gives a final of every step.
    const status = (await (await fetch(`${srv().url}/v1/sessions/bad`)).json()) as { steps: number; ended?: boolean };
    expect(status.steps).toBe(steps.length);
    c.send({ type: 'end', session: 'bad', patch: diff });
    const final = await c.nextOf('final', 'bad');
    expect(final.steps).toBe(steps.length);
    expect(final.patch).toEqual(patchClass(finalPatch(steps)));
    // A second end (with another patch) changes nothing: the final of the first.
    c.send({ type: 'end', session: 'bad', patch: '' });
    expect(await c.nextOf('final', 'bad')).toEqual(final);
    c.close();
  });
});

/** hydra-1915's first run: its step frames' bytes as the test client sends them, and the diff it submitted. */
const HELD_STEPS = await readSteps(HYDRA[0]!.file);
const HELD_DIFF = submittedDiff(HELD_STEPS)!;
const frameBytes = (session: string) => HELD_STEPS.reduce((n, step, seq) => n + Buffer.byteLength(JSON.stringify({ type: 'step', session, seq, step })), 0);
const PATCH_BYTES = Buffer.byteLength(HELD_DIFF);

describe("end.patch in the tenant's step bytes", () => {
  // Room for every step of the run, and one byte short of its patch too.
  const srv = useApp({ limits: { stepBytesPerTenant: frameBytes('held') + PATCH_BYTES - 1 } });

  it('refuses a patch past the bound with quota_exceeded, naming it; the end without it then goes through', async () => {
    const c = await Client.connect(srv().wsUrl);
    await stream(c, 'held', HYDRA_TASK, HELD_STEPS);
    const limit = frameBytes('held') + PATCH_BYTES - 1;
    c.send({ type: 'end', session: 'held', patch: HELD_DIFF });
    expect(await c.nextOf('error', 'held')).toMatchObject({
      code: 'quota_exceeded',
      message: `end.patch: tenant default's open sessions hold ${frameBytes('held')} bytes of steps; this one (${PATCH_BYTES} bytes) would take them past stepBytesPerTenant (${limit} bytes). The steps accepted before are kept: send it again once sessions have ended`,
    });
    c.send({ type: 'end', session: 'held' });
    const final = await c.nextOf('final', 'held');
    expect(final.steps).toBe(HELD_STEPS.length);
    expect(final.patch).toBeUndefined();
    c.close();
  });
});
