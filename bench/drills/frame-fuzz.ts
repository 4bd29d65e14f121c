/**
 * Frame fuzzer drill: a victim connection streams a real trajectory while a fuzzer connection (another token)
 * sends fast-check generated frames between its steps: arbitrary text and JSON, mutated real step frames,
 * prototype-named keys at every level, deep nesting, wrong types, binary frames, hostile ids, other
 * sessions' ids. After each batch the fuzzer pings: every answer must be a valid server message and none
 * `internal`; the server must stay up. At the end the victim's score frames must equal those of a quiet
 * control session of the same steps, and its final the batch report (POST /v1/score). Shrunk
 * counterexamples live in fuzz-counterexamples.json and are replayed first on every run.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import type { Step } from '../../src/core/types.js';
import { serverMessageSchema } from '../../src/protocol/server-messages.js';
import { DrillClient, type Frame } from './ws-client.js';

/** One kept counterexample: frame text, or a nested frame too large to keep literally. */
export type Counterexample = { note: string; text: string } | { note: string; nest: { prefix: string; open: string; middle?: string; close: string; depth: number; suffix: string } };

/** The kept counterexamples, as frames (the JSON file sits beside this module's source; dist/ has no copy). */
export function counterexampleFrames(): Array<{ note: string; frame: string }> {
  const file = new URL('./fuzz-counterexamples.json', import.meta.url.replace('/dist/bench/', '/bench/'));
  const list = JSON.parse(readFileSync(file, 'utf8')) as Counterexample[];
  return list.map((c) => ({
    note: c.note,
    frame: 'text' in c ? c.text : `${c.nest.prefix}${c.nest.open.repeat(c.nest.depth)}${c.nest.middle ?? ''}${c.nest.close.repeat(c.nest.depth)}${c.nest.suffix}`,
  }));
}

const PROTO_KEYS = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'toLocaleString', '__defineGetter__', 'isPrototypeOf'];
const FIELD_KEYS = [
  'type',
  'session',
  'seq',
  'step',
  'task',
  'format',
  'policy',
  'learn',
  'after',
  'passed',
  'agent',
  'model',
  't',
  'tool',
  'action',
  'kind',
  'command',
  'observation',
  'range',
  'tokens',
  'args',
];
const TYPES = ['start', 'step', 'outcome', 'end', 'resume', 'ping', 'START', 'score', 'final', ''];

const hostileId = fc.oneof(
  fc.constantFrom('../etc/passwd', '..', '.', '', 'a/b', 'a\\b', '%2e%2e%2f', 'con', 'nul.json', 'x.json.tmp', '.hidden', '\u202egnp.exe', '__proto__', 'constructor'),
  fc.string({ minLength: 0, maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: fc.constantFrom('\0', '\n', '\u0001', '/', '%', '\\', ' ', '\ud800'), maxLength: 40 }),
);

/** A JSON value nested `depth` levels. */
function nested(depth: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v] : { a: v };
  return v;
}

/** Sets `value` at a random place of a copy of `obj` (top level, or one level down). */
function mutate(obj: Record<string, unknown>, key: string, value: unknown, where: number): Record<string, unknown> {
  const copy: Record<string, unknown> = JSON.parse(JSON.stringify(obj)) as Record<string, unknown>;
  const inner = Object.values(copy).filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v));
  const target = where === 0 || inner.length === 0 ? copy : inner[where % inner.length]!;
  // defineProperty: `__proto__` becomes an own key, as JSON.parse would make it.
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
  return copy;
}

export interface FuzzContext {
  steps: readonly Step[];
  /** Session ids the fuzzer may name (its own, the victim's, unknown ones). */
  sessions: string[];
}

/** One fuzz frame: text (JSON or not) or a binary buffer. */
export function frameArbitrary(ctx: FuzzContext): fc.Arbitrary<string | Buffer> {
  const session = fc.oneof(fc.constantFrom(...ctx.sessions), hostileId);
  const seq = fc.oneof(fc.nat({ max: 200 }), fc.integer(), fc.double(), fc.constantFrom(-1, 2 ** 53, '0', null));
  const realStep = fc.constantFrom(...ctx.steps);
  const key = fc.oneof(fc.constantFrom(...PROTO_KEYS, ...FIELD_KEYS), fc.string({ maxLength: 12 }));
  const value = fc.oneof({ weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) }, { weight: 1, arbitrary: fc.integer({ min: 20, max: 120 }).map((d) => nested(d, 1)) });
  const stepFrame = fc.record({ s: session, q: seq, step: realStep, k: key, v: value, where: fc.nat(3), mutateStep: fc.boolean() }).map(({ s, q, step, k, v, where, mutateStep }) => {
    const frame = { type: 'step', session: s, seq: q, step: step as unknown as Record<string, unknown> };
    return JSON.stringify(mutateStep ? { ...frame, step: mutate(frame.step, k, v, where) } : mutate(frame, k, v, where));
  });
  const control = fc
    .record({
      type: fc.constantFrom(...TYPES),
      session,
      task: hostileId,
      after: seq,
      passed: fc.jsonValue({ maxDepth: 1 }),
      k: key,
      v: value,
    })
    .map(({ k, v, ...f }) => JSON.stringify(mutate(f, k, v, 0)));
  const anyObject = fc.dictionary(key, value, { maxKeys: 6 }).map((o) => JSON.stringify(o));
  return fc.oneof(
    { weight: 6, arbitrary: stepFrame },
    { weight: 4, arbitrary: control },
    { weight: 2, arbitrary: anyObject },
    { weight: 1, arbitrary: fc.json({ maxDepth: 4 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)) },
    { weight: 1, arbitrary: fc.integer({ min: 60, max: 2000 }).map((d) => JSON.stringify({ type: 'step', session: ctx.sessions[0], seq: 0, step: nested(d, 'x') })) },
  );
}

export interface FuzzOptions {
  url: string;
  http: string;
  task: string;
  steps: readonly Step[];
  /** Fuzz frames to send (kept counterexamples come on top). */
  frames: number;
  /** Most frames between two pings. */
  batch?: number;
  seed?: number;
  /** Tokens (the server's) for the victim and the fuzzer: two principals, so `resume` cannot move the victim. */
  victimToken: string;
  fuzzToken: string;
}

export interface FuzzResult {
  frames: number;
  counterexamples: number;
  /** Answers by type (errors by code). */
  answers: Record<string, number>;
  victimSteps: number;
  /** Victim score frames equal the control session's; its final equals POST /v1/score. */
  victimEqual: boolean;
  finalEqual: boolean;
  failure?: string;
}

const auth = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

function scoreView(f: Frame): unknown {
  return { t: f.t, seq: f.seq, stage: f.stage, score: f.score, reward: f.reward, tier: f.tier, reference: f.reference };
}

/** Sends frames, pings, and checks every answer; throws describing the first bad one. */
async function batchChecked(fuzz: DrillClient, frames: ReadonlyArray<string | Buffer>, answers: Record<string, number>): Promise<void> {
  fuzz.frames.length = 0;
  for (const f of frames) fuzz.send(f, Buffer.isBuffer(f));
  await fuzz.sync(30_000);
  for (const a of fuzz.frames) {
    const key = a.type === 'error' ? `error:${String(a.code)}` : a.type;
    answers[key] = (answers[key] ?? 0) + 1;
    const valid = serverMessageSchema.safeParse(a);
    if (!valid.success) throw new Error(`invalid answer ${JSON.stringify(a).slice(0, 300)}`);
    if (a.type === 'error' && a.code === 'internal') throw new Error(`internal error: ${JSON.stringify(a)}`);
  }
  fuzz.frames.length = 0;
}

export async function runFrameFuzz(o: FuzzOptions): Promise<FuzzResult> {
  const victim = await DrillClient.connect(o.url, auth(o.victimToken));
  let fuzz = await DrillClient.connect(o.url, auth(o.fuzzToken));
  const answers: Record<string, number> = {};
  const steps = o.steps;
  victim.send({ type: 'start', session: 'victim', task: o.task });
  await victim.next((f) => f.type === 'started');
  let next = 0;
  const victimStep = async (): Promise<void> => {
    if (next >= steps.length) return;
    victim.send({ type: 'step', session: 'victim', seq: next, step: steps[next] });
    next++;
    await victim.sync();
  };
  const ensureFuzz = async (): Promise<DrillClient> => {
    if (fuzz.closed) fuzz = await DrillClient.connect(o.url, auth(o.fuzzToken));
    return fuzz;
  };

  const kept = counterexampleFrames();
  let sent = 0;
  let failure: string | undefined;
  try {
    for (const c of kept) {
      await batchChecked(await ensureFuzz(), [c.frame], answers);
      sent++;
    }
    const ctx: FuzzContext = { steps, sessions: ['victim', 'own', 'fuzz-1', 's'] };
    (await ensureFuzz()).send({ type: 'start', session: 'own', task: o.task });
    const batch = o.batch ?? 16;
    const target = o.frames + kept.length;
    // Rounds of properties (fast-check draws short arrays more often) until the frame count is reached.
    for (let round = 0; sent < target; round++) {
      await fc.assert(
        fc.asyncProperty(fc.array(frameArbitrary(ctx), { minLength: 1, maxLength: batch }), async (frames) => {
          if (sent >= target) return;
          await victimStep();
          await batchChecked(await ensureFuzz(), frames, answers);
          sent += frames.length;
        }),
        { numRuns: Math.ceil((target - sent) / 4) + 1, ...(o.seed !== undefined ? { seed: o.seed + round } : {}), endOnFailure: false },
      );
    }
  } catch (error) {
    failure = (error as Error).message;
  }
  while (next < steps.length) await victimStep();
  victim.send({ type: 'end', session: 'victim' });
  const final = await victim.next((f) => f.type === 'final');
  const victimScores = victim.frames.filter((f) => f.type === 'score').map(scoreView);

  // The control: the same steps on a quiet connection.
  const control = await DrillClient.connect(o.url, auth(o.victimToken));
  control.send({ type: 'start', session: 'control', task: o.task });
  await control.next((f) => f.type === 'started');
  steps.forEach((step, seq) => control.send({ type: 'step', session: 'control', seq, step }));
  control.send({ type: 'end', session: 'control' });
  await control.next((f) => f.type === 'final');
  const controlScores = control.frames.filter((f) => f.type === 'score').map(scoreView);
  const batchReport = (await (
    await fetch(`${o.http}/v1/score`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth(o.victimToken) },
      body: JSON.stringify({ task: o.task, trajectory: steps }),
    })
  ).json()) as Record<string, unknown>;
  const { type: _t, session: _s, reason: _r, ...victimReport } = final;
  for (const c of [victim, fuzz, control]) c.close();
  return {
    frames: sent,
    counterexamples: kept.length,
    answers,
    victimSteps: victimScores.length,
    victimEqual: JSON.stringify(victimScores) === JSON.stringify(controlScores) && victimScores.length === steps.length,
    finalEqual: JSON.stringify(victimReport) === JSON.stringify(batchReport),
    ...(failure !== undefined ? { failure } : {}),
  };
}
