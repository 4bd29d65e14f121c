import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { scoreSteps } from '../../src/core/scorer.js';
import { getParser, parseInstancesText } from '../../src/formats/index.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { CORPUS, Client, useApp } from './helpers.js';

/** A real OpenHands output.jsonl (Multi-SWE-bench examples): event streams with action and observation events. */
const FILE = `${CORPUS}/OpenHands__OpenHands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl`;

const app = useApp();

describe('openhands sessions', () => {
  it('pair action and observation events: a score carries the seq of the event that completed its step', async () => {
    const text = await readFile(FILE, 'utf8');
    const firstLine = JSON.parse(text.split('\n')[0]!) as unknown;
    const events = getParser('openhands').events([firstLine]);
    const parsed = parseInstancesText(text, 'openhands', FILE);
    if (!parsed.ok) throw parsed.error;
    const steps = parsed.value[0]!.steps;
    expect(steps.length).toBeGreaterThan(3);
    expect(events.length).toBeGreaterThan(steps.length);

    // What the stream parser completes per event, fed alone.
    const sp = getParser('openhands').stream();
    const completing = events.map((e) => sp.push(e).steps.length);
    const flushed = sp.end().steps.length;

    const c = await Client.connect(app().wsUrl);
    c.send({ type: 'start', session: 'oh', task: 'ponylang__ponyc-4595', format: 'openhands' });
    await c.nextOf('started', 'oh');
    events.forEach((step, seq) => c.send({ type: 'step', session: 'oh', seq, step }));
    c.send({ type: 'end', session: 'oh' });
    const final = await c.nextOf('final', 'oh');
    const scores = c.frames.filter((f) => f.type === 'score');
    const expectedSeqs = completing.flatMap((n, seq) => Array.from({ length: n }, () => seq));
    expectedSeqs.push(...Array.from({ length: flushed }, () => events.length - 1));
    expect(scores.map((s) => s.seq)).toEqual(expectedSeqs);
    expect(completing.some((n) => n === 0)).toBe(true);
    expect(scores.map((s) => s.t)).toEqual(steps.map((_, i) => i));
    const batch = scoreSteps(steps, { reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers() });
    expect(scores.map((s) => s.score)).toEqual(batch.results.map((r) => r.score));
    expect(final.steps).toBe(steps.length);
    c.close();
  });
});
