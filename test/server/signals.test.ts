import { describe, expect, it } from 'vitest';
import { resolvePolicy } from '../../src/core/policy.js';
import { scoreSteps } from '../../src/core/scorer.js';
import { UNIFORM_PRIOR as prior } from '../../src/core/prior.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { CORPUS, Client, readSteps, useApp } from './helpers.js';

/** A real run (SWE-agent 0.x + gpt-4o-mini) that re-sends the edit of step 17 at steps 18-21: a blind-retry episode. */
const FILE = `${CORPUS}/multi-swe-bench__experiments/evaluation/java/verified/20240825_SWE-agent_gpt-4o-mini-2024-07-18/trajs/fasterxml__jackson-databind-3701.traj`;

const app = useApp();

describe('early-stop signals on the stream', () => {
  it('streams the blind-retry stop right after the score of the step that crosses the threshold', async () => {
    const steps = await readSteps(FILE);
    const policyInput = { blindRetry: { warn: 2, stop: 3 } };
    const policy = resolvePolicy(policyInput);
    if (!policy.ok) throw new Error(policy.error);
    const res = await fetch(`${app().url}/v1/sessions/none`);
    expect(res.status).toBe(404);
    const c = await Client.connect(app().wsUrl);
    c.send({ type: 'start', session: 'br', task: 'fasterxml__jackson-databind-3701', policy: policyInput });
    const started = await c.nextOf('started', 'br');
    const reference = started.reference as { kind: 'prior' };
    expect(reference.kind).toBe('prior');
    const batch = scoreSteps(steps, { reference: { kind: 'prior', prior }, analyzers: defaultAnalyzers(), policy: policy.value });
    const stop = batch.report.signals.find((s) => s.kind === 'blind_retry' && s.severity === 'stop');
    expect(stop?.t).toBe(20);
    expect(stop?.steps).toEqual([17, 18, 19, 20]);

    steps.forEach((step, seq) => c.send({ type: 'step', session: 'br', seq, step }));
    await c.sync();
    const ordered = c.frames.filter((f) => f.session === 'br') as unknown as Array<{ type: string; seq: number; kind?: string; severity?: string }>;
    expect(ordered.filter((f) => f.type === 'score')).toHaveLength(steps.length);
    const at = ordered.findIndex((f) => f.type === 'signal' && f.kind === 'blind_retry' && f.severity === 'stop');
    expect(ordered[at]).toMatchObject({ seq: 20, t: 20, steps: [17, 18, 19, 20] });
    expect(ordered[at - 1]).toMatchObject({ type: 'score', seq: 20 });
    const warn = ordered.find((f) => f.type === 'signal' && f.kind === 'blind_retry' && f.severity === 'warn');
    expect(warn?.seq).toBe(batch.report.signals.find((s) => s.kind === 'blind_retry' && s.severity === 'warn')?.t);
    c.close();
  });
});
