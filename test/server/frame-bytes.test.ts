/**
 * `frameBytes` writes a score frame's bytes without building its text: they must be the UTF-8 bytes of
 * `JSON.stringify(frame)` for every frame a session sends (real run, PTA and prior: test/memory/frame-log.test.ts
 * checks the text) and for the edge cases below (escaped and non-ASCII session ids, -0, nulls, large and
 * fractional numbers, pPass, non-finite values that fall back to JSON.stringify, a frame longer than the buffer).
 */
import { describe, expect, it, vi } from 'vitest';
import type { ReferenceInfo } from '../../src/core/types.js';
import type { ScoreMessage, ServerMessage } from '../../src/protocol/server-messages.js';
import { frameBytes, frameText, referenceJson } from '../../src/server/frame-text.js';

const reference: ReferenceInfo = { kind: 'pta', version: 3, paths: 12 };

function score(over: Partial<ScoreMessage> = {}, vector: Partial<ScoreMessage['score']> = {}): ScoreMessage {
  return {
    type: 'score',
    session: 's1',
    seq: 7,
    t: 6,
    stage: 'E',
    score: { total: 41.25, struct: 12.5, cov: 3, coh: 80, temp: 66.66666666666667, ...vector },
    reward: 0.125,
    tier: 'Ideal',
    reference,
    ...over,
  };
}

const expectSame = (frame: ServerMessage): void => expect(frameBytes(frame).equals(Buffer.from(JSON.stringify(frame), 'utf8'))).toBe(true);

describe('frameBytes', () => {
  it.each([
    ['a plain frame', score()],
    ['-0 and nulls', score({ reward: -0, t: 0, seq: 0 }, { struct: null, cov: null, temp: -0 })],
    ['negative, tiny, huge and integral doubles', score({ reward: -12.75 }, { total: 1e-7, coh: 1e21, temp: 100, cov: 2 ** 53 + 2 })],
    ['the largest safe integers', score({ seq: Number.MAX_SAFE_INTEGER, t: 10 ** 15 })],
    ['digits at every power of ten', score({ seq: 9, t: 10 }, { total: 99, struct: 100, cov: 999_999, coh: 1_000_000 })],
    ['a pPass', score({ pPass: 0.3333333333333333 })],
    ['a pPass of 0', score({ pPass: 0 })],
    ['a session id with quotes and backslashes', score({ session: 'a"b\\c' })],
    ['a session id with a control character', score({ session: 'a\u0001\tb' })],
    ['a non-ASCII session id', score({ session: 'sé-✓-😀' })],
    ['a long session id (past the buffer)', score({ session: 'x'.repeat(5000) })],
    ['a prior reference', score({ reference: { kind: 'prior' } })],
    ['a non-finite value (JSON.stringify writes null)', score({}, { coh: Number.NaN })],
    ['a non-finite reward', score({ reward: Number.POSITIVE_INFINITY })],
    ['a non-finite pPass', score({ pPass: Number.NaN })],
  ])('%s: the bytes of JSON.stringify', (_, frame) => {
    expectSame(frame);
  });

  it("keeps a reference's bytes in a buffer of their own, not in a view of Node's shared pool (a kept view keeps its 8 KB slab)", () => {
    const ref: ReferenceInfo = { kind: 'prior' };
    expect(frameBytes(score({ reference: ref })).equals(Buffer.from(JSON.stringify(score({ reference: ref })), 'utf8'))).toBe(true);
    const bytes = referenceJson(ref);
    expect(bytes.toString('utf8')).toBe(JSON.stringify(ref));
    expect(bytes.buffer.byteLength).toBe(bytes.length);
    expect(referenceJson(ref)).toBe(bytes);
  });

  it('other frames: the bytes of JSON.stringify', () => {
    expectSame({ type: 'pong' });
    expectSame({ type: 'error', code: 'bad_message', message: 'é "quoted"', session: 's', seq: 3 });
  });

  it("a final's text is made once for its measure (frameText) and its send (frameBytes), and each final gets its own", () => {
    const final = (session: string): ServerMessage => ({
      type: 'final',
      session,
      score: { total: 1, struct: null, cov: null, coh: 0, temp: 0 },
      tier: 'Lucky',
      waste: [],
      signals: [],
      steps: 0,
      stages: '',
      reference: { kind: 'prior' },
      unknown: 0,
      reason: 'end',
    });
    const a = final('a');
    const b = final('b');
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const text = frameText(a);
      expect(stringify).toHaveBeenCalledTimes(1);
      stringify.mockClear();
      expect(text).toBe(JSON.stringify(a));
      stringify.mockClear();
      expect(frameBytes(a).toString('utf8')).toBe(frameText(a));
      expect(stringify).not.toHaveBeenCalled();
      expect(frameText(b)).toContain('"session":"b"');
      expect(frameBytes(a).toString('utf8')).toContain('"session":"a"');
      expect(stringify).toHaveBeenCalledTimes(2);
    } finally {
      stringify.mockRestore();
    }
    expectSame(a);
    expectSame(b);
  });

  it('frames handed out earlier keep their bytes while later ones are written (each a view of bytes no later frame reuses), past a slab and one longer than it', () => {
    const frames = Array.from({ length: 400 }, (_, i) => score({ session: `s${i}-${'q'.repeat(i % 37)}`, seq: i, t: i }, { total: i / 7 }));
    frames.splice(150, 0, score({ session: 'z'.repeat(9000) }));
    const bytes = frames.map((f) => frameBytes(f));
    // 400 frames of ~200 bytes span several 8 KB slabs: every one is still its own frame's bytes.
    bytes.forEach((b, i) => expect(b.equals(Buffer.from(JSON.stringify(frames[i]), 'utf8'))).toBe(true));
    expect(new Set(bytes.map((b) => b.buffer)).size).toBeGreaterThan(2);
  });

  it('a frame after a long one is not left with its bytes', () => {
    expectSame(score({ session: 'y'.repeat(3000) }));
    expectSame(score());
    expect(frameBytes(score()).length).toBe(Buffer.byteLength(JSON.stringify(score())));
  });
});
