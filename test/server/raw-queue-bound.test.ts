/**
 * A raw-format session whose first action never gets its observation, followed by a stream of actions of the same
 * model response: every later step waited behind it, unscored and unbounded (a server of 4 GB died of one such
 * session), each action scanned the whole queue, and `end` scored them all past the step limit. The queue now holds
 * at most MAX_QUEUED_STEPS: the stuck head is emitted without its observation and the rest are scored as they come,
 * within the session's step limit.
 */
import { describe, expect, it } from 'vitest';
import { MAX_QUEUED_STEPS } from '../../src/formats/step-queue.js';
import { Client, useApp } from './helpers.js';

const LIMIT = 150;
const app = useApp({ limits: { maxStepsPerSession: LIMIT } });
const meta = { model_response: { id: 'r1' } };
const stuck = { id: 1, source: 'agent', action: 'run', args: { command: 'sleep 100000' }, tool_call_metadata: meta };
const message = (seq: number) => ({ id: seq + 1, source: 'agent', action: 'message', args: { content: `note ${seq}` }, tool_call_metadata: meta });

describe('a raw session with a step that never completes', () => {
  it('scores the steps behind it once the queue is full, and ends within the step limit', async () => {
    const c = await Client.connect(app().wsUrl);
    c.send({ type: 'start', task: 'x', session: 'stuck', format: 'openhands' });
    await c.nextOf('started', 'stuck');
    c.send({ type: 'step', session: 'stuck', seq: 0, step: stuck });
    for (let seq = 1; seq <= 3 * LIMIT; seq++) c.send({ type: 'step', session: 'stuck', seq, step: message(seq) });
    await c.sync();
    const scores = c.frames.filter((f) => f.type === 'score' && f.session === 'stuck');
    // The stuck run is emitted (without its observation) once MAX_QUEUED_STEPS steps wait behind it.
    expect(scores[0]).toMatchObject({ t: 0, seq: MAX_QUEUED_STEPS });
    expect(scores).toHaveLength(LIMIT);
    const refused = c.frames.filter((f) => f.type === 'error' && f.session === 'stuck');
    expect(refused[0]).toMatchObject({ code: 'too_large', message: expect.stringMatching(`limit of ${LIMIT} steps`) });
    c.frames.splice(0);
    c.send({ type: 'end', session: 'stuck' });
    const final = await c.nextOf('final', 'stuck');
    expect(final.steps).toBe(LIMIT);
    c.close();
  });
});
