/**
 * mini-swe-agent 1.1 logs a model turn without a tool call only as the `user` reply with
 * `extra.interrupt_type: "FormatError"` (the malformed response is not kept). Each is a step with no action
 * (method.md section 1), so a run of them is a `no_action` signal. Fixture: an excerpt of a real run (source in
 * test/fixtures/README.md).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { scoreSteps } from '../../src/core/scorer.js';
import { getParser, parseTrajectoryText } from '../../src/formats/index.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';

const FILE = new URL('../fixtures/mini-1.1-format-errors.traj.json', import.meta.url);
const text = readFileSync(FILE, 'utf8');
const REPLY = 'No tool calls found in the response. Every response MUST include at least one tool call.';

describe('mini-swe-agent 1.1 format errors', () => {
  it('each FormatError reply after tool results is a step with no action, its observation the reply', () => {
    const r = parseTrajectoryText(text, 'auto', FILE.pathname);
    if (!r.ok) throw r.error;
    const kinds = r.value.steps.map((s) => s.action.kind).join(' ');
    expect(kinds).toBe('shell shell none none none none none shell none none none none');
    const none = r.value.steps[2]!;
    expect(none).toMatchObject({ t: 2, tool: '', action: { kind: 'none' }, observation: REPLY });
    expect(r.value.steps.map((s) => s.t)).toEqual([...r.value.steps.keys()]);
  });

  it('streamed message by message gives the same steps, each as soon as its message arrives', () => {
    const parser = getParser('mini-swe-agent');
    const doc: unknown = JSON.parse(text);
    const sp = parser.stream();
    const streamed = [];
    const events = parser.events(doc);
    for (const e of events) {
      const out = sp.push(e).steps;
      if ((e as { extra?: { interrupt_type?: string } }).extra?.interrupt_type === 'FormatError') expect(out.at(-1)?.action.kind).toBe('none');
      streamed.push(...out);
    }
    streamed.push(...sp.end().steps);
    expect(streamed).toEqual(parser.parse(doc).steps);
  });

  it('five in a row raise no_action', () => {
    const r = parseTrajectoryText(text, 'auto', FILE.pathname);
    if (!r.ok) throw r.error;
    const { report } = scoreSteps(r.value.steps, { reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers() });
    expect(report.signals.map((s) => s.kind)).toContain('no_action');
  });
});
