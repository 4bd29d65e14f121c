import { describe, expect, it } from 'vitest';
import { parseInstancesText, parseTrajectoryText } from '../../src/formats/index.js';
import { corpusText } from './corpus.js';

const line = (o: unknown): string => JSON.stringify(o);

describe('steplens JSON Lines text', () => {
  const text = [
    line({ tool: 'bash', action: { kind: 'shell', command: 'ls' }, exitCode: 0 }),
    '{"tool": "bash", "action": ',
    '',
    line({ tool: 'bash', action: { kind: 'teleport' } }),
    line({ t: 7, tool: 'str_replace_editor', action: { kind: 'view', path: 'a.py', range: [1, 9] } }),
  ].join('\n');

  it('keeps good lines, reports a bad JSON line and an invalid record by line number', () => {
    const r = parseTrajectoryText(text, 'auto', 'run.jsonl');
    if (!r.ok) throw r.error;
    expect(r.value.format).toBe('steplens');
    expect(r.value.steps.map((s) => s.t)).toEqual([0, 7]);
    expect(r.value.steps[0]).toEqual({ t: 0, tool: 'bash', action: { kind: 'shell', command: 'ls' }, exitCode: 0 });
    expect(r.value.diagnostics.map((d) => d.at)).toEqual(['line 2', 'line 4']);
    // The position is `at`; the message does not repeat it ("line 2: line 2: ..." once printed).
    expect(r.value.diagnostics[0]?.message).toMatch(/^invalid JSON .*; line skipped$/);
    expect(r.value.diagnostics[1]?.message).toMatch(/^invalid step: action/);
  });

  it('a record without t gets its position', () => {
    const r = parseTrajectoryText([line({ tool: 'a', action: { kind: 'none' } }), line({ tool: 'b', action: { kind: 'think' } })].join('\n'), 'steplens');
    expect(r.ok && r.value.steps.map((s) => [s.t, s.tool])).toEqual([
      [0, 'a'],
      [1, 'b'],
    ]);
  });

  it('an explicit format that does not match is a bad_input error', () => {
    const r = parseTrajectoryText('{"trajectory": [], "info": {}}', 'atif', 'x.traj');
    expect(r.ok ? '' : `${r.error.code} ${r.error.message}`).toMatch(/^bad_input x\.traj: not an atif log: expected an ATIF object/);
  });
});

describe('JSON Lines whose first line is broken', () => {
  const lines = corpusText('OpenHands__OpenHands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl').split('\n');

  it('skips the first line, named, as it would a later one: the other instances are kept', () => {
    const whole = parseInstancesText(lines.join('\n'), 'auto', 'output.jsonl');
    if (!whole.ok) throw whole.error;
    // The first instance cut short (a write that stopped), the next two as they are.
    const text = [lines[0]!.slice(0, 3000), lines[1], lines[2]].join('\n');
    const r = parseInstancesText(text, 'auto', 'output.jsonl');
    if (!r.ok) throw r.error;
    expect(r.value.map((p) => p.steps)).toEqual(whole.value.slice(1, 3).map((p) => p.steps));
    expect(r.value[0]?.diagnostics[0]).toMatchObject({ at: 'line 1', message: expect.stringMatching(/^invalid JSON .*; line skipped$/) });
  });

  it('a broken pretty-printed document stays one document: its error names the position', () => {
    const doc = JSON.stringify({ trajectory: [{ action: 'ls', observation: 'a' }, 'x', 7], info: {} }, null, 2);
    const cut = doc.slice(0, doc.indexOf('7') + 1);
    expect(cut.split('\n').filter((l) => /^\s*(?:"x",|7)$/.test(l))).toHaveLength(2); // a line that is JSON on its own
    const r = parseTrajectoryText(cut, 'auto', 'run.traj');
    expect(r.ok ? '' : r.error.message).toMatch(/^run\.traj: invalid JSON: .*end of input: truncated\?\)$/);
  });
});
