/**
 * A run with no step (a real mini-swe-agent run whose one turn was a format error): a session that streams it and
 * ends gets a `final` (`end` is always answered so). `POST /v1/score` of its log answered that report, tier Lucky
 * (`steps: 0`), while `steplens score` of the same file refuses it (audit23): a report carries a tier and nothing
 * earned one. Now `POST /v1/score`, a batch item and `/v1/score/steps` refuse it before scoring with the CLI's code and
 * message (`bad_input`, "no steps found, nothing to score"); `/get_reward` still gives it the final's score (a
 * trainer's batch needs a reward for every rollout). A log whose records could not be read, none a step, is refused
 * naming the first; a reference still needs a step.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getParser } from '../../src/formats/index.js';
import { cli } from '../cli/run-cli.js';
import { CORPUS, Client, readDoc, useApp } from './helpers.js';

const srv = useApp();

const TASK = 'pylint-dev__astroid-1196';
/** The real run with no step (`steplens score` refuses it: "no steps found, nothing to score"). */
const NO_STEPS = join(CORPUS, `SWE-agent__mini-swe-agent__pull-refs/output/deepseek_reasoner_dev/${TASK}/${TASK}.traj.json`);

const post = async (path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
  const res = await fetch(`${srv().url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/** The `final` of a session that streams the run's raw events, as a live client would, then ends. */
async function streamedFinal(session: string, passed?: boolean): Promise<Record<string, unknown>> {
  const events = getParser('mini-swe-agent').events(await readDoc(NO_STEPS));
  const c = await Client.connect(srv().wsUrl);
  try {
    c.send({ type: 'start', session, task: TASK, format: 'mini-swe-agent' });
    await c.nextOf('started', session);
    if (passed !== undefined) c.send({ type: 'outcome', session, passed });
    events.forEach((step, seq) => c.send({ type: 'step', session, seq, step }));
    c.send({ type: 'end', session });
    // `final` is the report plus these (proto/README.md, "End, outcome, learning").
    const { type, session: id, reason, passed: known, ...report } = await c.nextOf('final', session);
    expect([type, id, reason, known]).toEqual(['final', session, 'end', passed]);
    expect(c.frames.filter((f) => f.type === 'score' || f.type === 'error')).toEqual([]);
    return report;
  } finally {
    c.close();
  }
}

describe('a run with no step', () => {
  it('is refused over HTTP as steplens score refuses it: bad_input, the same message, no tier', async () => {
    const doc = await readDoc(NO_STEPS);
    const cliRefusal = await cli('score', NO_STEPS, '--json');
    expect(cliRefusal.code).toBe(1);
    expect(cliRefusal.stderr).toBe(`steplens score: ${NO_STEPS}: no steps found, nothing to score\n`);
    const refused = { code: 'bad_input', message: 'body.trajectory: no steps found, nothing to score' };
    for (const passed of [undefined, true, false]) {
      const outcome = passed !== undefined ? { passed } : {};
      expect(await post('/v1/score', { task: TASK, trajectory: doc, ...outcome })).toEqual({ status: 400, body: { error: refused } });
      const batch = await post('/v1/score/batch', { items: [{ task: TASK, trajectory: doc, ...outcome }] });
      expect(JSON.stringify(batch.body)).not.toContain('"tier"');
      expect(JSON.stringify(batch.body)).toContain('items[0].trajectory: no steps found, nothing to score');
    }
    expect(await post('/v1/score/steps', { task: TASK, trajectory: doc })).toEqual({ status: 400, body: { error: refused } });
  });

  it('a session of it still ends with a final; /get_reward gives it the final score', async () => {
    const final = await streamedFinal('no-steps-reward');
    expect(final.steps).toBe(0);
    const reward = await post('/get_reward', { query: [await readFile(NO_STEPS, 'utf8')], labels: [TASK] });
    expect(reward.status).toBe(200);
    expect(reward.body.rewards).toEqual([(final.score as { total: number }).total / 100]);
  });

  it('a log whose records could not be read, none a step, is still refused naming the first; a reference needs a step', async () => {
    const doc = (await readDoc(NO_STEPS)) as { messages: unknown[] };
    const unreadable = { ...doc, messages: [...doc.messages, { role: 3 }] };
    const r = await post('/v1/score', { task: TASK, trajectory: unreadable });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'bad_input', message: expect.stringMatching(/^body\.trajectory: no steps found, nothing to score \(.+\)$/) as unknown });
    const ref = await post(`/v1/tasks/${TASK}/references`, { trajectory: doc });
    expect(ref.status).toBe(400);
    expect(ref.body.error).toEqual({ code: 'bad_input', message: 'body.trajectory: no steps found' });
  });
});
