import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { connect } from '../../src/client/index.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { scoreSteps } from '../../src/core/scorer.js';
import { getParser, parseInstancesText } from '../../src/formats/index.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { CORPUS, useApp } from '../server/helpers.js';

/** A real OpenHands output.jsonl (Multi-SWE-bench examples): action and observation events. */
const FILE = `${CORPUS}/OpenHands__OpenHands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl`;

const app = useApp();

describe('client over an OpenHands event stream', () => {
  it("resolves an action event with [] and its observation with the step's score", async () => {
    const text = await readFile(FILE, 'utf8');
    const events = getParser('openhands').events([JSON.parse(text.split('\n')[0]!) as unknown]);
    const parsed = parseInstancesText(text, 'openhands', FILE);
    if (!parsed.ok) throw parsed.error;
    const steps = parsed.value[0]!.steps;
    const batch = scoreSteps(steps, { reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers() });
    const sp = getParser('openhands').stream();
    const completing = events.map((e) => sp.push(e).steps.length);

    const client = await connect(app().url);
    const session = await client.start({ task: 'ponylang__ponyc-4595', format: 'openhands' });
    const answers = [];
    for (const event of events) answers.push(await session.step(event));
    expect(answers.map((a) => a.length)).toEqual(completing);
    const action = completing.findIndex((n, i) => n === 0 && completing[i + 1] === 1);
    expect(action).toBeGreaterThanOrEqual(0);
    expect(answers[action]).toEqual([]);
    expect(answers[action + 1]).toMatchObject([{ seq: action + 1 }]);
    const streamed = answers.flat();
    expect(streamed.map((f) => f.score)).toEqual(batch.results.slice(0, streamed.length).map((r) => r.score));
    const final = await session.end();
    expect(final.steps).toBe(steps.length);
    expect(session.scores.map((f) => f.score)).toEqual(batch.results.map((r) => r.score));
    expect(final.score).toEqual(batch.report.score);
    await client.close();
  });
});
