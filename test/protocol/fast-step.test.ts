import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseInstancesText } from '../../src/formats/index.js';
import { stepMessageSchema } from '../../src/protocol/client-messages.js';
import { fastStepMessage, fastStepRecord } from '../../src/protocol/fast-step.js';
import { stepRecordSchema } from '../../src/formats/step-schema.js';
import { CORPUS } from '../cli/run-cli.js';

const KINDS = ['shell', 'code', 'view', 'edit', 'search', 'list', 'think', 'finish', 'message', 'none', 'other', 'bogus'];
const FIELDS = ['kind', 'command', 'language', 'code', 'path', 'range', 'op', 'old', 'new', 'text', 'query', 'name', 'extra'];
const loose = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.integer({ min: -3, max: 3 }),
  fc.double(),
  fc.constant(null),
  fc.boolean(),
  fc.tuple(fc.integer(), fc.integer()),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.constantFrom('create', 'str_replace', 'undo', 'zap'),
  fc.dictionary(fc.constantFrom('prompt', 'completion', 'x'), fc.oneof(fc.nat(), fc.double(), fc.string())),
);
const actionArb = fc.tuple(fc.constantFrom(...KINDS), fc.dictionary(fc.constantFrom(...FIELDS.slice(1)), loose, { maxKeys: 4 })).map(([kind, rest]) => ({ kind, ...rest }));
const stepArb = fc
  .dictionary(
    fc.constantFrom('t', 'tool', 'args', 'action', 'observation', 'exitCode', 'tokens', 'timestamp', 'thought', 'cwd', 'id', 'other'),
    fc.oneof(loose, actionArb, fc.constantFrom('bash', 'str_replace_editor')),
    { maxKeys: 8 },
  )
  .chain((d) => fc.tuple(fc.constant(d), fc.boolean(), actionArb, fc.string({ maxLength: 6 })).map(([rest, full, action, tool]) => (full ? { ...rest, tool, action } : rest)));

/** Mostly well-typed steps: each field right, or (rarely) replaced by a loose value or an unknown key. */
const validAction = fc.oneof(
  fc.record({ kind: fc.constant('shell'), command: fc.string() }),
  fc.record({ kind: fc.constant('code'), language: fc.string(), code: fc.string() }),
  fc.record({ kind: fc.constant('view'), path: fc.string(), range: fc.tuple(fc.integer(), fc.integer()) }, { requiredKeys: ['kind', 'path'] }),
  fc.record(
    {
      kind: fc.constant('edit'),
      op: fc.constantFrom('create', 'str_replace', 'insert', 'write', 'undo', 'replace_lines', 'zap'),
      path: fc.string(),
      old: fc.string(),
      new: fc.string(),
      text: fc.string(),
      range: fc.tuple(fc.integer(), fc.integer()),
    },
    { requiredKeys: ['kind', 'op', 'path'] },
  ),
  fc.record(
    { kind: fc.constantFrom('search', 'list', 'think', 'finish', 'message', 'none', 'other'), query: fc.string(), path: fc.string(), text: fc.string(), name: fc.string() },
    { requiredKeys: ['kind'] },
  ),
);
const typedStep = fc
  .record(
    {
      t: fc.nat(),
      tool: fc.string({ maxLength: 5 }),
      args: fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue()),
      action: validAction,
      observation: fc.string(),
      exitCode: fc.integer(),
      tokens: fc.record({ prompt: fc.nat(), completion: fc.double({ min: 0, max: 1e6, noNaN: true }) }, { requiredKeys: [] }),
      timestamp: fc.string(),
      thought: fc.string(),
      cwd: fc.string(),
      id: fc.string(),
    },
    { requiredKeys: ['tool', 'action'] },
  )
  .chain((step) =>
    fc
      .tuple(fc.constant(step), fc.option(fc.tuple(fc.constantFrom(...Object.keys(step), 'zzz'), loose), { freq: 4 }))
      .map(([base, change]) => (change === null ? base : { ...base, [change[0]]: change[1] })),
  );

/** Every value the fast path takes, zod takes too, and returns unchanged. */
function agrees(fast: unknown, zodResult: { success: boolean; data?: unknown }, input: unknown): void {
  if (fast === undefined) return;
  expect(zodResult.success).toBe(true);
  expect(fast).toBe(input);
  expect(zodResult.data).toEqual(input);
}

describe('fast step path', () => {
  it('accepts only steps zod accepts unchanged (random steps, actions, bad types, unknown keys)', () => {
    let taken = 0;
    fc.assert(
      fc.property(fc.oneof(stepArb, typedStep), (step) => {
        const fast = fastStepRecord(step);
        if (fast !== undefined) taken++;
        agrees(fast, stepRecordSchema.safeParse(step), step);
      }),
      { numRuns: 3000 },
    );
    expect(taken).toBeGreaterThan(200);
  });

  it('accepts only step envelopes zod accepts unchanged', () => {
    const envelope = fc
      .record(
        {
          type: fc.constantFrom('step', 'stop'),
          session: fc.oneof(fc.string({ maxLength: 6 }), fc.constant('a b'), fc.constant('x'.repeat(129)), fc.integer()),
          seq: fc.oneof(fc.nat(), fc.integer({ min: -2, max: 2 }), fc.double(), fc.constant(2 ** 60)),
          step: fc.anything(),
        },
        { requiredKeys: ['type'] },
      )
      .chain((e) => fc.option(fc.string({ maxLength: 3 })).map((extra) => (extra === null ? e : { ...e, [extra]: 1 })));
    fc.assert(
      fc.property(envelope, (m) => agrees(fastStepMessage(m as Record<string, unknown>), stepMessageSchema.safeParse(m), m)),
      { numRuns: 3000 },
    );
  });

  it('leaves a session id zod refuses to zod: "." and ".." (a fuzzed envelope of session "." once passed it)', () => {
    for (const session of ['.', '..', '', 'a b', 'x'.repeat(129)]) {
      const m = { type: 'step', session, seq: 1, step: { tool: 'bash', action: { kind: 'shell', command: 'ls' } } };
      expect(stepMessageSchema.safeParse(m).success, session).toBe(false);
      expect(fastStepMessage(m), session).toBeUndefined();
    }
    const ok = { type: 'step', session: '...', seq: 1, step: { tool: 'bash', action: { kind: 'shell', command: 'ls' } } };
    expect(fastStepMessage(ok)).toBe(ok);
  });

  it('takes only what zod takes unchanged at each edge value of a shell action, the tokens and the envelope (checked by switches)', () => {
    const edges: unknown[] = [undefined, null, '', 'ls', 0, -1, 1.5, Number.NaN, Infinity, -Infinity, 2 ** 60, '1', true, [], {}, [1, 2]];
    const base = () => ({ tool: 'bash', action: { kind: 'shell', command: 'ls' } as Record<string, unknown>, tokens: { prompt: 1, completion: 2 } as Record<string, unknown> });
    let taken = 0;
    const compare = (step: Record<string, unknown>): void => {
      const fast = fastStepRecord(step);
      if (fast !== undefined) taken++;
      agrees(fast, stepRecordSchema.safeParse(step), step);
    };
    for (const v of edges) {
      for (const key of ['command', 'kind', 'extra', '__proto__', 'constructor', 'toString']) {
        const step = base();
        if (v === undefined) delete step.action[key];
        else Object.defineProperty(step.action, key, { value: v, enumerable: true, writable: true, configurable: true });
        compare(step);
      }
      for (const key of ['prompt', 'completion', 'total', '__proto__', 'valueOf']) {
        const step = base();
        if (v === undefined) delete step.tokens[key];
        else Object.defineProperty(step.tokens, key, { value: v, enumerable: true, writable: true, configurable: true });
        compare(step);
      }
      for (const key of ['type', 'session', 'seq', 'step', 'extra', '__proto__', 'hasOwnProperty']) {
        const m: Record<string, unknown> = { type: 'step', session: 'run-1', seq: 3, step: base() };
        if (v === undefined) delete m[key];
        else Object.defineProperty(m, key, { value: v, enumerable: true, writable: true, configurable: true });
        const fast = fastStepMessage(m);
        if (fast !== undefined) taken++;
        agrees(fast, stepMessageSchema.safeParse(m), m);
      }
    }
    expect(taken).toBeGreaterThan(20);
  });

  it('takes every real corpus step (converted to the steplens format), as zod does', () => {
    const file = `${CORPUS}SWE-agent__mini-swe-agent__pull-refs/output/deepseek_lite_dev_noparallel/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json`;
    const parsed = parseInstancesText(readFileSync(file, 'utf8'), 'auto', file);
    if (!parsed.ok) throw parsed.error;
    const steps = JSON.parse(JSON.stringify(parsed.value.flatMap((r) => r.steps))) as unknown[];
    expect(steps.length).toBeGreaterThan(50);
    for (const step of steps) {
      expect(fastStepRecord(step)).toBe(step);
      agrees(fastStepRecord(step), stepRecordSchema.safeParse(step), step);
      const m = { type: 'step', session: 'run-1', seq: 3, step };
      expect(fastStepMessage(m)).toBe(m);
    }
  });
});
