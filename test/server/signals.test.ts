import { describe, expect, it } from 'vitest';
import { resolvePolicy } from '../../src/core/policy.js';
import { scoreSteps } from '../../src/core/scorer.js';
import { UNIFORM_PRIOR as prior } from '../../src/core/prior.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { CORPUS, Client, readSteps, useApp } from './helpers.js';

/** A real run (mini-swe-agent 2.2.7 + deepseek-chat, NOT resolved) with a blind-retry episode over steps 5, 7, 9, 11. */
const FILE = `${CORPUS}/SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/django__django-13401/django__django-13401.traj.json`;

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
    c.send({ type: 'start', session: 'br', task: 'django__django-13401', policy: policyInput });
    const started = await c.nextOf('started', 'br');
    const reference = started.reference as { kind: 'prior' };
    expect(reference.kind).toBe('prior');
    const batch = scoreSteps(steps, { reference: { kind: 'prior', prior }, analyzers: defaultAnalyzers(), policy: policy.value });
    const stop = batch.report.signals.find((s) => s.kind === 'blind_retry' && s.severity === 'stop');
    expect(stop?.t).toBe(11);
    expect(stop?.steps).toEqual([5, 7, 9, 11]);

    steps.forEach((step, seq) => c.send({ type: 'step', session: 'br', seq, step }));
    await c.sync();
    const ordered = c.frames.filter((f) => f.session === 'br') as unknown as Array<{ type: string; seq: number; kind?: string; severity?: string }>;
    expect(ordered.filter((f) => f.type === 'score')).toHaveLength(steps.length);
    const at = ordered.findIndex((f) => f.type === 'signal' && f.kind === 'blind_retry' && f.severity === 'stop');
    expect(ordered[at]).toMatchObject({ seq: 11, t: 11, steps: [5, 7, 9, 11] });
    expect(ordered[at - 1]).toMatchObject({ type: 'score', seq: 11 });
    const warn = ordered.find((f) => f.type === 'signal' && f.kind === 'blind_retry' && f.severity === 'warn');
    expect(warn?.seq).toBe(batch.report.signals.find((s) => s.kind === 'blind_retry' && s.severity === 'warn')?.t);
    c.close();
  });
});
