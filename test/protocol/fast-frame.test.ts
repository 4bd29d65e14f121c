/**
 * The step frame's fast path (`parseClientMessage` takes a `steplens` step record without zod, walks only its
 * `args` for depth, and marks the record so that `parseStepPayload` does not check it again) gives exactly the
 * answer of the plain path: the whole frame's depth check, then zod. Compared on real frames, on structural
 * mutations of them, on seeded byte mutations, and at the depth limit.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { err, ok, type Result } from '../../src/errors.js';
import { formatIssues } from '../../src/core/config.js';
import { isRecord } from '../../src/core/json-value.js';
import { parseInstancesText } from '../../src/formats/index.js';
import { MAX_JSON_DEPTH, nestedDeeperThan, tooDeepMessage } from '../../src/formats/json-helpers.js';
import { stepRecordSchema } from '../../src/formats/step-schema.js';
import { stepMessageSchema, SESSION_ID_MAX } from '../../src/protocol/client-messages.js';
import { parseClientMessage, parseStepPayload, type MessageError } from '../../src/protocol/parse.js';
import { CORPUS } from '../cli/run-cli.js';
import { jsonMutations } from './json-mutations.js';

/** The plain path for a frame that is a JSON object: depth of the whole frame, then zod (no fast path). */
function plainFrame(raw: string): Result<unknown, MessageError> | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isRecord(doc) || doc.type !== 'step') return undefined;
  const context: Pick<MessageError, 'session' | 'seq'> = {};
  if (typeof doc.session === 'string' && doc.session.length <= SESSION_ID_MAX) context.session = doc.session;
  if (typeof doc.seq === 'number' && Number.isSafeInteger(doc.seq)) context.seq = doc.seq;
  if (nestedDeeperThan(doc)) return err({ code: 'bad_message', message: tooDeepMessage('message'), ...context });
  const parsed = stepMessageSchema.safeParse(doc);
  return parsed.success ? ok(parsed.data) : err({ code: 'bad_message', message: formatIssues(parsed.error, 'step'), ...context });
}

/** The plain path for a step record: zod alone, `t` defaulted as `parseStepPayload` does. */
function plainRecord(payload: unknown): Result<unknown, string> {
  const parsed = stepRecordSchema.safeParse(payload);
  if (!parsed.success) return err(formatIssues(parsed.error, 'step'));
  const step = parsed.data;
  step.t ??= 0;
  return ok(step);
}

/** Both paths give the same answer for `raw` (a frame whose type is `step`); returns whether the frame was accepted. */
function same(raw: string): boolean {
  const plain = plainFrame(raw);
  if (plain === undefined) return false;
  const got = parseClientMessage(raw);
  expect(got).toEqual(plain);
  if (!got.ok || !plain.ok) return false;
  const step = (got.value as { step: unknown }).step;
  const plainStep = (plain.value as { step: unknown }).step;
  expect(parseStepPayload(step)).toEqual(plainRecord(plainStep));
  return true;
}

const file = `${CORPUS}SWE-agent__mini-swe-agent__pull-refs/output/deepseek_lite_dev_noparallel/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json`;
const parsedRun = parseInstancesText(readFileSync(file, 'utf8'), 'auto', file);
if (!parsedRun.ok) throw parsedRun.error;
const steps = JSON.parse(JSON.stringify(parsedRun.value.flatMap((r) => r.steps))) as Array<Record<string, unknown>>;
const frame = (step: unknown, seq = 3): string => JSON.stringify({ type: 'step', session: 'run-1', seq, step });

/** A value nested `n` levels deep: `n` = 1 is `{}`. */
const nested = (n: number): unknown => {
  let v: unknown = {};
  for (let i = 1; i < n; i++) v = i % 2 === 0 ? [v] : { a: v };
  return v;
};

/** Structural changes of one step: fields dropped, retyped, unknown keys, deep values in each nesting place. */
function* mutations(step: Record<string, unknown>): Generator<unknown> {
  const odd: unknown[] = [null, 1.5, -1, 'x', [], {}, [1, 2], { prompt: -1 }, true, nested(70)];
  for (const key of [...Object.keys(step), 'zzz', '__proto__', 'valueOf']) {
    const { [key]: _dropped, ...rest } = step;
    yield rest;
    for (const v of odd) yield { ...step, [key]: v };
  }
  const action = step.action as Record<string, unknown>;
  for (const key of [...Object.keys(action), 'range', 'zzz']) for (const v of odd) yield { ...step, action: { ...action, [key]: v } };
  for (const v of odd) yield { ...step, tokens: { prompt: 1, completion: v } };
}

describe('the step frame fast path', () => {
  it('takes every real step frame, with the plain path answer', () => {
    let accepted = 0;
    for (const step of steps) if (same(frame(step))) accepted++;
    expect(accepted).toBe(steps.length);
  });

  it('answers structural mutations of real frames as the plain path does, errors byte for byte', () => {
    let accepted = 0;
    let refused = 0;
    for (const step of steps.slice(0, 12))
      for (const m of mutations(step)) {
        if (same(frame(m))) accepted++;
        else refused++;
      }
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
  });

  it('answers seeded byte mutations of real frames as the plain path does', () => {
    let compared = 0;
    for (const [i, step] of steps.slice(0, 20).entries())
      for (const raw of jsonMutations(Buffer.from(frame(step, i)), 40, 1 + i)) {
        const text = raw.toString('utf8');
        if (plainFrame(text) === undefined) continue;
        same(text);
        compared++;
      }
    expect(compared).toBeGreaterThan(50);
  });

  it('refuses a frame one level past the limit wherever the depth is, and takes one at the limit', () => {
    const step = steps.find((s) => (s.action as { kind: string }).kind === 'shell')!;
    // The frame is level 1, the step 2, args 3: a value of depth n under args makes a frame of depth n + 3.
    for (const n of [MAX_JSON_DEPTH - 4, MAX_JSON_DEPTH - 3, MAX_JSON_DEPTH - 2]) {
      const raw = frame({ ...step, args: { deep: nested(n) } });
      const accepted = same(raw);
      expect(accepted).toBe(n + 3 <= MAX_JSON_DEPTH);
      expect(parseClientMessage(raw).ok).toBe(n + 3 <= MAX_JSON_DEPTH);
    }
    // The same depth in a record the fast path does not take (an unknown key): the plain path's answer too.
    for (const n of [MAX_JSON_DEPTH - 3, MAX_JSON_DEPTH - 2]) same(frame({ ...step, zzz: 1, args: { deep: nested(n) } }));
  });

  it('checks a record again unless it is the one the last frame marked', () => {
    const step = steps[0]!;
    const m = parseClientMessage(frame(step));
    if (!m.ok || m.value.type !== 'step') throw new Error('refused');
    // An equal record that is another object is checked: changed to a bad one, it is refused.
    const other = { ...step, action: { kind: 'shell' } };
    expect(parseStepPayload(other)).toEqual(plainRecord(other));
    expect(parseStepPayload(m.value.step).ok).toBe(true);
    // The mark is used once: the same object, changed after, is checked again.
    const record = m.value.step as Record<string, unknown>;
    record.tool = 7;
    expect(parseStepPayload(record)).toEqual(plainRecord(record));
    expect(parseStepPayload(record).ok).toBe(false);
  });
});
