import { describe, expect, it } from 'vitest';
import { getParser, type FormatName } from '../../src/formats/index.js';
import { corpusJson, TRAJECTORIES } from './corpus.js';

/** One file per format variant (plus every other corpus trajectory below). */
describe('parse(doc).steps equals streaming events(doc) one by one', () => {
  it.each(TRAJECTORIES.map((t) => [t.file, t.format] as const))('%s', (file, format) => {
    const parser = getParser(format as FormatName);
    const doc = corpusJson(file);
    const whole = parser.parse(doc);
    const sp = parser.stream();
    const streamed = [];
    for (const e of parser.events(doc)) streamed.push(...sp.push(e).steps);
    streamed.push(...sp.end().steps);
    expect(streamed).toEqual(whole.steps);
  });

  it('OpenHands: a step is emitted as soon as its observation arrives, not at end()', () => {
    const parser = getParser('openhands');
    const events = parser.events(corpusJson('OpenHands__OpenHands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl'));
    const sp = parser.stream();
    const firstAction = events.findIndex((e) => (e as { action?: string; source?: string }).action === 'run');
    const firstObs = events.findIndex((e) => (e as { cause?: number }).cause === (events[firstAction] as { id: number }).id);
    for (let i = 0; i < firstObs; i++) expect(sp.push(events[i]).steps).toEqual([]);
    const out = sp.push(events[firstObs]).steps;
    expect(out).toHaveLength(1);
    expect(out[0]?.action).toEqual({ kind: 'shell', command: 'ls -l /workspace/ponylang__ponyc__0.1' });
  });

  it('OpenHands: an action whose observation never comes is flushed by end()', () => {
    const sp = getParser('openhands').stream();
    const action = { id: 5, source: 'agent', action: 'run', args: { command: 'ls' }, tool_call_metadata: { function_name: 'execute_bash', model_response: { id: 'r1' } } };
    expect(sp.push(action).steps).toEqual([]);
    const flushed = sp.end().steps;
    expect(flushed).toHaveLength(1);
    expect(flushed[0]).toMatchObject({ t: 0, tool: 'execute_bash', action: { kind: 'shell', command: 'ls' } });
    expect(flushed[0]?.observation).toBeUndefined();
  });
});
