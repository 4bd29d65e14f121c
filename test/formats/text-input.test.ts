import { describe, expect, it } from 'vitest';
import { parseTrajectoryText } from '../../src/formats/index.js';

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
