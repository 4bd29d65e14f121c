import { describe, expect, it } from 'vitest';
import { FORMAT_NAMES, getParser, parseTrajectoryText } from '../../src/formats/index.js';

const BAD_DOCS: Array<[string, unknown]> = [
  ['a number', 42],
  ['a string', 'hello'],
  ['null', null],
  ['an empty array', []],
  ['an empty object', {}],
];

const BAD_EVENTS: unknown[] = [7, 'text', null, [], {}, { action: 12 }, { role: 3 }, { source: 'agent', tool_calls: 'x' }];

describe.each(FORMAT_NAMES.map((f) => [f]))('shared robustness suite: %s', (format) => {
  const parser = getParser(format);

  it.each(BAD_DOCS)('parse(%s) gives diagnostics or nothing, never throws', (_label, doc) => {
    const r = parser.parse(doc);
    expect(r.format).toBe(format);
    expect(r.steps).toEqual([]);
    expect(Array.isArray(r.diagnostics)).toBe(true);
  });

  it('wrong-type documents are reported with a diagnostic', () => {
    for (const doc of [42, 'hello', null]) {
      const r = parser.parse(doc);
      expect(r.diagnostics.length).toBeGreaterThan(0);
      expect(r.diagnostics[0]?.at).toBe('document');
    }
  });

  it('events() of a wrong document is empty, and the stream survives junk events', () => {
    expect(parser.events(42)).toEqual([]);
    const sp = parser.stream();
    for (const e of BAD_EVENTS) expect(() => sp.push(e)).not.toThrow();
    expect(() => sp.end()).not.toThrow();
  });

  it('reports non-object events with their position', () => {
    const sp = parser.stream();
    const r = sp.push(7);
    expect(r.steps).toEqual([]);
    expect(r.diagnostics[0]?.message).toMatch(/got a number/);
    expect(r.diagnostics[0]?.at).toMatch(/^(event 0|record 1)$/);
  });

  it('a truncated document is a bad_input error naming source and position', () => {
    const r = parseTrajectoryText('{"trajectory": [{"action": "ls", "observation": "x"', format, 'cut.traj');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('bad_input');
      expect(r.error.message).toMatch(/^cut\.traj: invalid JSON: .*line 1, column \d+/);
    }
  });

  it('an empty file is a bad_input error', () => {
    const r = parseTrajectoryText('  \n', format, 'empty.json');
    expect(r.ok ? '' : r.error.message).toBe('empty.json: the input is empty');
  });
});

/** Documents with a few-MB observation and a record with missing fields, one per format. */
const HUGE = 'x'.repeat(3_000_000) + '\n[Command finished with exit code 3]';
const HUGE_DOCS: Record<string, { doc: unknown; missing: unknown }> = {
  steplens: {
    doc: [{ tool: 'bash', action: { kind: 'shell', command: 'ls' }, observation: HUGE, exitCode: 3 }],
    missing: [{ tool: 'bash' }, { tool: 'bash', action: { kind: 'shell', command: 'ls' } }],
  },
  openhands: {
    doc: [
      { id: 1, source: 'agent', action: 'run', args: { command: 'make' } },
      { id: 2, cause: 1, observation: 'run', content: HUGE },
    ],
    missing: [
      { id: 1, source: 'agent', action: 'run' },
      { id: 2, cause: 1, observation: 'run' },
    ],
  },
  'swe-agent': {
    doc: { trajectory: [{ action: 'make', observation: HUGE, state: {} }], history: [], info: {} },
    missing: { trajectory: [{ observation: 'no action' }, { action: 'ls' }], info: {} },
  },
  'mini-swe-agent': {
    doc: {
      trajectory_format: 'mini-swe-agent-1',
      info: {},
      messages: [
        { role: 'assistant', content: '```bash\nmake\n```' },
        { role: 'user', content: HUGE },
      ],
    },
    missing: { trajectory_format: 'mini-swe-agent-1', info: {}, messages: [{ role: 'assistant' }, { content: 'x' }] },
  },
  atif: {
    doc: {
      schema_version: 'ATIF-v1.5',
      steps: [
        {
          source: 'agent',
          tool_calls: [{ tool_call_id: 'a', function_name: 'bash_command', arguments: { keystrokes: 'make\n' } }],
          observation: { results: [{ source_call_id: 'a', content: HUGE }] },
        },
      ],
    },
    missing: { schema_version: 'ATIF-v1.5', steps: [{ source: 'agent' }, { source: 'agent', tool_calls: [{}] }] },
  },
};

describe.each(FORMAT_NAMES.map((f) => [f]))('huge observation and missing fields: %s', (format) => {
  const parser = getParser(format);
  const cases = HUGE_DOCS[format];
  if (cases === undefined) throw new Error(`no case for ${format}`);

  it('keeps a few-MB observation whole', () => {
    const r = parser.parse(cases.doc);
    expect(r.steps).toHaveLength(1);
    expect(r.steps[0]?.observation?.length).toBe(HUGE.length);
    expect(r.steps[0]?.exitCode).toBe(3);
  });

  it('records with missing fields give diagnostics or defaults, never a throw', () => {
    const r = parser.parse(cases.missing);
    expect(r.format).toBe(format);
    for (const s of r.steps) expect(typeof s.action.kind).toBe('string');
  });
});
