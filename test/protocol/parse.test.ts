import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { parseBody, parseClientMessage, parseStepPayload } from '../../src/protocol/parse.js';
import { scoreRequestSchema } from '../../src/protocol/http-bodies.js';
import { formatIssues } from '../../src/core/config.js';
import { parseTrajectoryText } from '../../src/formats/index.js';
import { CORPUS } from '../server/helpers.js';

describe('parseClientMessage', () => {
  it('accepts every message type', () => {
    const ok = [
      { type: 'start', task: 'django__django-11099', format: 'openhands', learn: true, policy: { blindRetry: { stop: 4 } } },
      { type: 'step', session: 's', seq: 0, step: { anything: 1 } },
      { type: 'outcome', session: 's', passed: true },
      { type: 'end', session: 's' },
      { type: 'resume', session: 's', after: -1 },
      { type: 'ping' },
    ];
    for (const m of ok) expect(parseClientMessage(JSON.stringify(m))).toMatchObject({ ok: true, value: m });
    expect(parseClientMessage(Buffer.from('{"type":"ping"}')).ok).toBe(true);
  });

  it('names the offending field and keeps session and seq', () => {
    const cases: Array<[string, RegExp]> = [
      ['not json', /^invalid JSON/],
      ['null', /expected a JSON object/],
      ['{"type":"stop"}', /^type: expected one of start, step/],
      ['{"type":"start"}', /^start\.task: /],
      ['{"type":"start","task":"t","format":"word"}', /^start\.format: /],
      ['{"type":"start","task":"t","policy":{"nonsense":1}}', /^start\.policy/],
      ['{"type":"step","session":"s","seq":-1,"step":{}}', /^step\.seq: /],
      ['{"type":"step","session":"s","seq":1.5,"step":{}}', /^step\.seq: /],
      ['{"type":"step","session":"s","seq":0}', /^step\.step: /],
      ['{"type":"outcome","session":"s","passed":"yes"}', /^outcome\.passed: /],
      ['{"type":"resume","session":"s"}', /^resume\.after: /],
      ['{"type":"end","session":""}', /^end\.session: /],
    ];
    for (const [raw, message] of cases) {
      const r = parseClientMessage(raw);
      expect(r.ok, raw).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe('bad_message');
        expect(r.error.message, raw).toMatch(message);
      }
    }
    const r = parseClientMessage('{"type":"step","session":"abc","seq":3}');
    expect(r.ok ? undefined : [r.error.session, r.error.seq]).toEqual(['abc', 3]);
  });
});

describe('parseStepPayload', () => {
  it('accepts every step a real trajectory normalises to', async () => {
    const file = `${CORPUS}/gruckion__mini-swe-agent/swebench_results/20251118_gemini-3-pro-74pct/trajs/django__django-11099/django__django-11099.traj.json`;
    const parsed = parseTrajectoryText(await readFile(file, 'utf8'), 'auto', file);
    if (!parsed.ok) throw parsed.error;
    expect(parsed.value.steps.length).toBeGreaterThan(0);
    for (const step of parsed.value.steps) expect(parseStepPayload(JSON.parse(JSON.stringify(step)))).toEqual({ ok: true, value: step });
  });

  it('names the bad field of a step', () => {
    expect(parseStepPayload({ t: 0, tool: 'bash', action: { kind: 'shell' } })).toMatchObject({ ok: false, error: expect.stringMatching(/^step\.action\.command: /) });
    expect(parseStepPayload({ t: 0, tool: 'bash', action: { kind: 'view', path: 'a.py', range: [1] } })).toMatchObject({ ok: false, error: expect.stringMatching(/^step\.action\.range/) });
    expect(parseStepPayload({ t: 0, tool: 'bash', action: { kind: 'none' }, exitCode: 'x' })).toMatchObject({ ok: false, error: expect.stringMatching(/^step\.exitCode: /) });
  });
});

describe('parseBody', () => {
  it('names the field of an HTTP body', () => {
    expect(parseBody(scoreRequestSchema, { task: 't', trajectory: [], passed: 1 })).toMatchObject({ ok: false, error: expect.stringMatching(/^body\.passed: /) });
    expect(parseBody(scoreRequestSchema, null)).toMatchObject({ ok: false, error: expect.stringMatching(/^body: /) });
  });
});

describe('formatIssues (the one zod-error formatter)', () => {
  const schema = z.object({ a: z.object({ b: z.array(z.object({ c: z.number() })) }), d: z.string(), e: z.boolean(), f: z.null() });
  const issues = (v: unknown) => {
    const r = schema.safeParse(v);
    if (r.success) throw new Error('expected issues');
    return r.error;
  };

  it('names each field from the prefix, array indices in brackets, and counts issues past the third', () => {
    expect(formatIssues(issues({ a: { b: [{ c: 1 }, { c: 'x' }] }, d: 's', e: true, f: null }), 'body')).toMatch(/^body\.a\.b\[1\]\.c: [^;]+$/);
    expect(formatIssues(issues({ a: { b: [{ c: 'x' }] }, d: 1, e: 1, f: 1 }), 'start')).toMatch(/^start\.a\.b\[0\]\.c: .+; start\.d: .+; start\.e: .+ \(and 1 more\)$/);
  });

  it('says (root) for a value with neither path nor prefix, the prefix alone with a prefix', () => {
    expect(formatIssues(issues(5))).toMatch(/^\(root\): /);
    expect(formatIssues(issues(5), 'frame')).toMatch(/^frame: /);
  });
});
