/**
 * The `start` / `end` fast path (`fastSessionMessage`, used by `parseClientMessage`) gives exactly the answer of
 * the plain path (the whole frame's depth check, then zod), keys in the same order: compared on the usual frames,
 * on every field set to each of a pool of edge values (lengths at and past each limit, dot ids, control and
 * non-ASCII characters, lone surrogates, wrong types, unknown and prototype keys), and on seeded random frames.
 */
import { describe, expect, it } from 'vitest';
import { err, ok, type Result } from '../../src/errors.js';
import { formatIssues } from '../../src/core/config.js';
import { nestedDeeperThan, tooDeepMessage } from '../../src/formats/json-helpers.js';
import { FORMAT_NAMES } from '../../src/formats/types.js';
import { CLIENT_MESSAGE_SCHEMAS, MAX_END_PATCH_CHARS, SESSION_ID_MAX, TASK_ID_MAX_LENGTH } from '../../src/protocol/client-messages.js';
import { fastSessionMessage } from '../../src/protocol/fast-session.js';
import { parseClientMessage, type MessageError } from '../../src/protocol/parse.js';
import { rng } from '../forecast/rng.js';

/** The plain path for a JSON object frame of type `start` or `end`: depth of the whole frame, then zod. */
function plainFrame(raw: string): Result<unknown, MessageError> {
  const doc = JSON.parse(raw) as Record<string, unknown>;
  const type = doc.type as 'start' | 'end';
  const context: Pick<MessageError, 'session' | 'seq'> = {};
  if (typeof doc.session === 'string' && doc.session.length <= SESSION_ID_MAX) context.session = doc.session;
  if (typeof doc.seq === 'number' && Number.isSafeInteger(doc.seq)) context.seq = doc.seq;
  if (nestedDeeperThan(doc)) return err({ code: 'bad_message', message: tooDeepMessage('message'), ...context });
  const parsed = CLIENT_MESSAGE_SCHEMAS[type].safeParse(doc);
  return parsed.success ? ok(parsed.data) : err({ code: 'bad_message', message: formatIssues(parsed.error, type), ...context });
}

/** Both paths agree on `frame` (values and key order); returns whether the fast path took it. */
function same(frame: Record<string, unknown>): boolean {
  const raw = JSON.stringify(frame);
  const plain = plainFrame(raw);
  const got = parseClientMessage(raw);
  expect(got).toEqual(plain);
  expect(JSON.stringify(got)).toBe(JSON.stringify(plain));
  const fast = fastSessionMessage(JSON.parse(raw));
  if (fast !== undefined) expect(plain).toEqual(ok(fast));
  return fast !== undefined;
}

const VALUES: unknown[] = [
  null,
  0,
  1.5,
  true,
  false,
  '',
  'x',
  '.',
  '..',
  '...',
  './',
  ' a',
  'a b',
  'a\tb',
  'a\u007f',
  '~',
  '!',
  'é',
  'sess-é',
  '\ud800',
  'a\udc00',
  '\ud800\udc00',
  '\udc00\ud800',
  'a'.repeat(SESSION_ID_MAX),
  'a'.repeat(SESSION_ID_MAX + 1),
  'é'.repeat(SESSION_ID_MAX),
  'b'.repeat(TASK_ID_MAX_LENGTH),
  'b'.repeat(TASK_ID_MAX_LENGTH + 1),
  `${'😀'.repeat(TASK_ID_MAX_LENGTH / 2)}`,
  `${'😀'.repeat(TASK_ID_MAX_LENGTH / 2)}x`,
  [],
  ['a'],
  {},
  { a: 1 },
  { warn: 3 },
  'STEPLENS',
  ...FORMAT_NAMES,
];
const START_FIELDS = ['session', 'task', 'format', 'agent', 'model', 'learn', 'policy', 'extra', '__proto__', 'constructor', 'toString', 'seq'];
const END_FIELDS = ['session', 'patch', 'extra', '__proto__', 'hasOwnProperty', 'seq'];

const START_BASES: Array<Record<string, unknown>> = [
  { type: 'start', task: 'pylint-dev__astroid-1196' },
  { type: 'start', session: 's000000001', task: 'django__django-11099' },
  { task: 'django__django-11099', session: 's-1', type: 'start', learn: true, model: 'openai/gpt-5-mini', agent: 'mini-swe-agent 1.1', format: 'mini-swe-agent' },
  { type: 'start', session: 'run/7', task: 'astropy__astropy-12907', format: 'steplens', learn: false },
];
const END_BASES: Array<Record<string, unknown>> = [
  { type: 'end', session: 's000000001' },
  { session: 'x', type: 'end', patch: '' },
  { type: 'end', session: 'run/7', patch: 'diff --git a/x.py b/x.py\n+1\n' },
];

/** Each base with one field set to each value, and removed. */
function mutations(bases: Array<Record<string, unknown>>, fields: string[]): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [...bases];
  for (const base of bases)
    for (const field of fields) {
      const without = { ...base };
      delete without[field];
      out.push(without);
      // defineProperty: `__proto__` becomes an own key, as JSON.parse makes it.
      for (const v of VALUES) out.push(Object.defineProperty({ ...base }, field, { value: v, enumerable: true, writable: true, configurable: true }));
    }
  return out;
}

describe('the start and end frames fast path', () => {
  it('takes the usual frames, with zod answer for them', () => {
    for (const frame of [...START_BASES, ...END_BASES]) expect(same(frame)).toBe(true);
  });

  it('answers as zod for every field set to each edge value or left out', () => {
    let taken = 0;
    const frames = [...mutations(START_BASES, START_FIELDS), ...mutations(END_BASES, END_FIELDS)];
    for (const frame of frames) if (same(frame)) taken++;
    // Both sides of the check are exercised: many frames taken, many left to zod.
    expect(taken).toBeGreaterThan(200);
    expect(frames.length - taken).toBeGreaterThan(200);
  });

  it('answers as zod at the end patch limit', () => {
    expect(same({ type: 'end', session: 's', patch: 'p'.repeat(MAX_END_PATCH_CHARS) })).toBe(true);
    expect(same({ type: 'end', session: 's', patch: 'p'.repeat(MAX_END_PATCH_CHARS + 1) })).toBe(false);
  });

  it('answers as zod on seeded random frames', () => {
    const next = rng(26);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
    for (let i = 0; i < 3000; i++) {
      const start = next() < 0.5;
      const frame: Record<string, unknown> = { ...pick(start ? START_BASES : END_BASES) };
      const fields = start ? START_FIELDS : END_FIELDS;
      for (let k = Math.floor(next() * 4); k > 0; k--) {
        const field = pick(fields);
        if (next() < 0.2) delete frame[field];
        else Object.defineProperty(frame, field, { value: pick(VALUES), enumerable: true, writable: true, configurable: true });
      }
      same(frame);
    }
  });

  it('leaves a frame that is not a start or end object to the other paths', () => {
    for (const doc of [null, [], 'start', { type: 'step' }, { type: 'ping' }, { type: 'resume', session: 's', after: -1 }, { type: 'outcome', session: 's', passed: true }]) {
      expect(fastSessionMessage(doc)).toBeUndefined();
    }
  });
});
