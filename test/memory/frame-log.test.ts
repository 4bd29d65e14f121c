/**
 * The session's compact frame log rebuilds exactly the frames it sent (score
 * and signal frames, in order, nulls, rewards), for resume and duplicates,
 * over a real corpus run scored against the prior and against its task's PTA.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { referenceTotal } from '../../src/core/composite.js';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { ptaFromJson, ptaPaths } from '../../src/core/pta/index.js';
import { createScorer } from '../../src/core/scorer.js';
import type { Reference } from '../../src/core/scorer-api.js';
import type { ReferenceInfo } from '../../src/core/types.js';
import { parseInstancesText } from '../../src/formats/index.js';
import { FrameLog, MARK_ROWS } from '../../src/server/frame-log.js';
import { frameBytes, frameText } from '../../src/server/frame-text.js';
import { Session, type StepFrame } from '../../src/server/session.js';
import type { StepResult } from '../../src/core/scorer-api.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';
import { LOCAL_PRINCIPAL } from '../../src/server/principal.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const CORPUS = CORPUS_DIR;
const RUN = `${CORPUS}/SWE-agent__mini-swe-agent__pull-refs/output/deepseek_lite_dev_noparallel/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json`;
const analyzers = defaultAnalyzers();

function steps(): unknown[] {
  const parsed = parseInstancesText(readFileSync(RUN, 'utf8'), 'auto', RUN);
  if (!parsed.ok) throw new Error(String(parsed.error));
  const first = parsed.value[0];
  if (!first) throw new Error('no run');
  return JSON.parse(JSON.stringify(first.steps)) as unknown[];
}

function references(): Array<[string, Reference, ReferenceInfo]> {
  const pta = ptaFromJson(readFileSync(path.resolve(here, '../../data/example/pylint-dev__astroid-1196.json'), 'utf8'));
  if (!pta.ok) throw new Error(pta.error);
  return [
    ['prior', { kind: 'prior', prior: UNIFORM_PRIOR }, { kind: 'prior' }],
    ['pta', { kind: 'pta', pta: pta.value }, { kind: 'pta', version: pta.value.version, paths: ptaPaths(pta.value).length }],
  ];
}

describe('session frame log', () => {
  const cases = references().flatMap(([name, reference, info]) => [
    [name, reference, info, false],
    [`${name}, the log given the weights`, reference, info, true],
  ]) as Array<[string, Reference, ReferenceInfo, boolean]>;
  it.each(cases)('rebuilds every sent frame against the %s (and the hand-written score-frame text and bytes equal JSON.stringify)', (_, reference, info, weights) => {
    const session = new Session({
      ...(weights ? { weights: DEFAULT_CONFIG.weights } : {}),
      id: 's1',
      principal: LOCAL_PRINCIPAL,
      task: 't',
      format: 'steplens',
      learn: false,
      scorer: createScorer({ reference, analyzers }),
      reference: info,
      maxSteps: 10_000,
      now: 0,
    });
    const sent: StepFrame[] = [];
    const all = steps();
    all.forEach((step, seq) => {
      const out = session.step(seq, step);
      if (out.kind !== 'accepted') throw new Error(out.kind);
      for (const f of out.frames) {
        expect(frameText(f)).toBe(JSON.stringify(f));
        expect(frameBytes(f).equals(Buffer.from(JSON.stringify(f)))).toBe(true);
      }
      sent.push(...structuredClone(out.frames));
    });
    expect(sent.length).toBeGreaterThan(all.length);
    expect(sent.some((f) => f.type === 'signal')).toBe(true);
    expect(session.frames).toEqual(sent);
    const totals = sent.flatMap((f) => (f.type === 'score' ? [f.score.total] : []));
    expect(session.totals).toEqual(totals);
    expect(session.latestTotal).toBe(totals.at(-1));
    expect(JSON.stringify(session.frames)).toBe(JSON.stringify(sent));
    for (const f of session.framesAfter(-1)) expect(frameText(f)).toBe(JSON.stringify(f));
    for (const after of [-1, 0, 7, Math.floor(all.length / 2), all.length - 1]) {
      expect([...session.framesAfter(after)]).toEqual(sent.filter((f) => f.seq > after));
    }
    for (const seq of [0, 5, MARK_ROWS - 1, MARK_ROWS, all.length - 1]) {
      const dup = session.step(seq, all[seq]);
      expect(dup).toEqual({ kind: 'duplicate', frames: sent.filter((f) => f.type === 'score' && f.seq === seq) });
    }
  });

  it('keeps no total the weights give: a row fewer numbers against the PTA, none fewer against the prior, and the same frames', () => {
    const numbers = (reference: Reference, info: ReferenceInfo, weights: boolean): { bytes: number; frames: string } => {
      const scorer = createScorer({ reference, analyzers });
      const log = new FrameLog('s1', info, weights ? DEFAULT_CONFIG.weights : undefined);
      steps().forEach((step, seq) => log.add(seq, scorer.push(step as Parameters<typeof scorer.push>[0])));
      return { bytes: log.bytes, frames: JSON.stringify(log.frames(() => true)) };
    };
    const rows = steps().length;
    for (const [name, reference, info] of references()) {
      const without = numbers(reference, info, false);
      const withWeights = numbers(reference, info, true);
      expect(withWeights.frames).toBe(without.frames);
      // 8 bytes a number: against the PTA every total is the composite of the row's values.
      expect(without.bytes - withWeights.bytes).toBe(name === 'pta' ? 8 * rows : 0);
    }
  });
});

describe('FrameLog', () => {
  it('keeps seq jumps, repeated seqs, t and rewards that are not the implied ones, -0 and nulls', () => {
    const log = new FrameLog('x', { kind: 'prior' });
    const signal = { kind: 'blind_retry', severity: 'warn', t: 2, steps: [1, 2], message: 'm' };
    const result = (t: number, total: number, reward: number, struct: number | null, signals: unknown[] = []): StepResult =>
      ({ t, state: { stage: t % 2 ? 'E' : 'V' }, score: { total, struct, cov: struct, coh: 0.25, temp: -0 }, reward, tier: t > 2 ? 'Lucky' : 'Ideal', signals }) as unknown as StepResult;
    const rows: Array<[number, StepResult]> = [
      [0, result(0, 10.5, 10.5, null)],
      [0, result(1, 12, 1.5, 3.25, [signal])],
      [1000, result(2, 11, -1, null)],
      [1003, result(7, 11, 0.1, 1)],
      [1003, result(4, -0, 99, 2, [signal, signal])],
    ];
    const sent: unknown[] = [];
    for (const [seq, r] of rows) {
      log.add(seq, r);
      sent.push({ type: 'score', session: 'x', seq, t: r.t, stage: r.state.stage, score: r.score, reward: r.reward, tier: r.tier, reference: { kind: 'prior' } });
      for (const s of r.signals) sent.push({ type: 'signal', session: 'x', seq, ...s });
    }
    const all = log.frames(() => true);
    expect(all).toEqual(sent);
    expect(Object.is((all[5] as { score: { total: number } }).score.total, -0)).toBe(true);
    expect(log.totals()).toEqual([10.5, 12, 11, 11, -0]);
    expect(Object.is(log.latestTotal, -0)).toBe(true);
    expect(new FrameLog('y', { kind: 'prior' }).latestTotal).toBeUndefined();
    expect(log.frames((seq, type) => seq === 1003 && type === 'signal')).toHaveLength(2);
  });
  it('leaves out coh, struct and cov equal to the previous row and rebuilds them exactly (0 and -0, nulls between, NaN)', () => {
    const log = new FrameLog('x', { kind: 'pta', version: 1, paths: 1 });
    const scores: Array<[number, number | null, number | null]> = [
      [0.5, null, null],
      [0.5, 1, 2],
      [0.5, 1, 2],
      [-0, 1, null],
      [0, -0, 2],
      [0, 0, 2],
      [Number.NaN, null, 2],
      [Number.NaN, 0, 2],
      [0.25, 0, 3],
    ];
    const sent = scores.map(([coh, struct, cov], t) => {
      const score = { total: t, struct, cov, coh, temp: 0.5 };
      log.add(t, { t, state: { stage: 'E' }, score, reward: 1, tier: 'Ideal', signals: [] } as unknown as StepResult);
      return score;
    });
    const got = log.frames(() => true).map((f) => (f as { score: unknown }).score);
    expect(got).toHaveLength(sent.length);
    got.forEach((g, i) => {
      for (const k of ['total', 'struct', 'cov', 'coh', 'temp'] as const) expect(Object.is((g as Record<string, unknown>)[k], sent[i]![k])).toBe(true);
    });
    expect(log.totals()).toEqual(sent.map((s) => s.total));
  });

  it('keeps a total only where the weights do not give it, and rebuilds every total exactly', () => {
    const w = DEFAULT_CONFIG.weights;
    const log = new FrameLog('x', { kind: 'pta', version: 1, paths: 1 }, w);
    const plain = new FrameLog('x', { kind: 'pta', version: 1, paths: 1 });
    const sent: number[] = [];
    for (let t = 0; t < 200; t++) {
      const struct = t % 5 === 0 ? null : (t * 7) % 100;
      const cov = t % 9 === 0 ? null : (t * 3) % 97;
      const coh = (t % 4) / 3;
      const temp = t % 3 === 0 ? -0 : 1 / (t + 1);
      // Most rows are the composite; every seventh (with struct and cov) is not, nor a total with them null.
      const derived = struct !== null && cov !== null ? referenceTotal(w, struct, cov, coh, temp) : t / 3;
      const total = t % 7 === 0 && struct !== null && cov !== null ? derived + 1e-9 : derived;
      sent.push(total);
      const r = { t, state: { stage: 'E' }, score: { total, struct, cov, coh, temp }, reward: 1, tier: 'Ideal', signals: [] } as unknown as StepResult;
      log.add(t, r);
      plain.add(t, r);
    }
    const frames = log.frames(() => true);
    expect(frames).toEqual(plain.frames(() => true));
    frames.forEach((f, i) => expect(Object.is((f as { score: { total: number } }).score.total, sent[i])).toBe(true));
    expect(log.totals()).toEqual(sent);
    expect(log.totals().every((x, i) => Object.is(x, sent[i]))).toBe(true);
    for (const seq of [0, 7, 63, 64, 65, 128, 199]) expect(log.framesOf(seq, 'score')).toEqual(frames.filter((f) => f.seq === seq));
    expect(log.bytes).toBeLessThan(plain.bytes);
  });

  it('pairs the codes of two rows of at most one signal in one number, and rebuilds every frame and total exactly', () => {
    const info = { kind: 'prior' } as const;
    const log = new FrameLog('x', info);
    const sig = (t: number, n: number): unknown[] => Array.from({ length: n }, (_, j) => ({ kind: 'cycle', severity: 'warn', t, steps: [t], message: `m${j}` }));
    // Signals a row: pairs of 0-1 signals, then a row of 2 and 3 (their code stands alone), odd and even.
    const counts = [0, 1, 1, 0, 2, 0, 0, 3, 1, 1, 0, 0, 0, 2, 2, 0, 1];
    const expected: unknown[] = [];
    let prev = 0;
    counts.forEach((n, t) => {
      const score = { total: t + 0.25, struct: null, cov: null, coh: 0.5, temp: 0.75 };
      const signals = sig(t, n);
      log.add(t, { t, state: { stage: 'E' }, score, reward: score.total - prev, tier: 'Ideal', signals } as unknown as StepResult);
      expected.push({ type: 'score', session: 'x', seq: t, t, stage: 'E', score, reward: score.total - prev, tier: 'Ideal', reference: info });
      for (const s of signals) expected.push({ type: 'signal', session: 'x', seq: t, ...(s as object) });
      prev = score.total;
    });
    expect(JSON.parse(JSON.stringify(log.frames(() => true)))).toEqual(expected);
    expect(log.totals()).toEqual(counts.map((_, t) => t + 0.25));
    for (let t = 0; t < counts.length; t++) expect(log.framesOf(t, 'signal')).toHaveLength(counts[t]!);
    // Numbers: a total, a temp a row, coh once; codes: rows 0-1, 2-3, 10-11, 16 (alone, last) and 8-9 pair, 4-7 and 12-15 do not (a row of 2+ signals).
    const rows = counts.length;
    const codes = 4 + 1 + 4 + 4;
    const signalBytes = counts.reduce((b, n) => b + n * (96 + 2 * 2 + 8), 0);
    expect(log.bytes).toBe(64 + 8 * (2 * rows + 1 + codes) + signalBytes);
  });

  it("finds one seq's frames from the last mark before them: the same frames, a bounded number of rows decoded", () => {
    const log = new FrameLog('x', { kind: 'prior' });
    const signal = { kind: 'cycle', severity: 'warn', t: 0, steps: [0], message: 'm' };
    // 3,000 rows: seqs with gaps and repeats (a raw event completing none or two steps), coh/struct/cov repeating.
    let seq = 0;
    for (let t = 0; t < 3000; t++) {
      seq += t % 7 === 0 ? 2 : t % 5 === 0 ? 0 : 1;
      const score = { total: t % 13, struct: t % 3 === 0 ? null : t % 4, cov: t % 11, coh: t % 2, temp: 0.5 };
      log.add(seq, { t, state: { stage: 'E' }, score, reward: t % 9 === 0 ? 5 : score.total - ((t - 1) % 13), tier: 'Ideal', signals: t % 17 === 0 ? [signal] : [] } as unknown as StepResult);
    }
    const all = log.frames(() => true);
    const reads = vi.spyOn(log as unknown as { at: (p: number) => number }, 'at');
    for (let s = 0; s <= seq + 1; s++) {
      reads.mockClear();
      expect(log.framesOf(s, 'score')).toEqual(all.filter((f) => f.seq === s && f.type === 'score'));
      // At most MARK_ROWS rows before the seq's own (each row is at most 7 numbers): the whole log was 3,000 rows.
      expect(reads.mock.calls.length).toBeLessThanOrEqual(7 * (MARK_ROWS + 3));
      expect(log.framesOf(s, 'signal')).toEqual(all.filter((f) => f.seq === s && f.type === 'signal'));
    }
  });
});
