/**
 * A broken pretty-printed document (one brace appended to a SWE-agent log) is refused with its position without
 * parsing each of its lines as a JSON Lines record: each failed line made an exception and a diagnostic (22,123 for
 * a 2.6 MB log, ~150 ms a parser). The verdict is the JSON Lines rule's either way (text-input.ts).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseTrajectoryText } from '../../src/formats/index.js';

const fixture = new URL('../fixtures/swe-agent-0__django__django-11564.traj.gz', import.meta.url);
const pretty = gunzipSync(readFileSync(fixture)).toString('utf8');

afterEach(() => vi.restoreAllMocks());

describe('a broken document', () => {
  it('is refused naming its position, its lines not parsed one by one', () => {
    const lines = pretty.split('\n').length;
    expect(lines).toBeGreaterThan(100);
    const parse = vi.spyOn(JSON, 'parse');
    const r = parseTrajectoryText(`${pretty}}`, 'auto', 'run.traj');
    const calls = parse.mock.calls.length;
    parse.mockRestore();
    expect(r.ok ? '' : `${r.error.code} ${r.error.message}`).toMatch(/^bad_input run\.traj: invalid JSON: .* \(line \d+, column \d+\)$/);
    // The document, then its first line: not one call a line (the old code made `lines` + 1).
    expect(calls).toBeLessThanOrEqual(2);
  });

  it('JSON Lines with a broken first line are still read as lines when half could be records', () => {
    const rec = (t: number): string => JSON.stringify({ t, tool: 'bash', action: { kind: 'shell', command: 'ls' } });
    const r = parseTrajectoryText(['{"t": 0, "tool": ', rec(1), rec(2), rec(3)].join('\n'), 'auto', 'run.jsonl');
    if (!r.ok) throw r.error;
    expect(r.value.steps.map((s) => s.t)).toEqual([1, 2, 3]);
    expect(r.value.diagnostics.map((d) => d.at)).toEqual(['line 1']);
  });

  it('lines shaped like objects that are not JSON get the same refusal as before', () => {
    const r = parseTrajectoryText(['{"a": ', '{oops}', '{nope}', '{"t": 1}'].join('\n'), 'auto', 'x.jsonl');
    expect(r.ok ? '' : `${r.error.code} ${r.error.message}`).toMatch(/^bad_input x\.jsonl: invalid JSON: .*\(line \d+, column \d+/);
  });

  it('a single broken line is refused as before', () => {
    const r = parseTrajectoryText('{"a": ', 'auto', 'one.json');
    expect(r.ok ? '' : r.error.code).toBe('bad_input');
  });
});
