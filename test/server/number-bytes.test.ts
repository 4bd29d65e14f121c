/**
 * `putDouble` writes a double's `String(x)` without making the string (a score frame's doubles: bench/README.md
 * "life21"). Where it writes, the bytes must be `String(x)`'s; where it does not settle a value exactly it writes
 * nothing and says so (-1), and the frame writer falls back to `String(x)`. Checked on every score and reward of
 * corpus runs, on seeded random doubles of several shapes, and on the edges (powers of ten and their neighbours,
 * 2^53, the range's ends). A score frame's doubles no longer go through `String` (fails on main, which calls it for
 * every fractional number).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { createScorer } from '../../src/core/scorer.js';
import { parseTrajectoryText } from '../../src/formats/index.js';
import type { ScoreMessage } from '../../src/protocol/server-messages.js';
import { frameBytes } from '../../src/server/frame-text.js';
import { putDouble } from '../../src/server/number-bytes.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';

const buffer = Buffer.alloc(64);

/** The values putDouble wrote differently from `String(x)`, and how many it left to `String`. */
function mismatches(values: Iterable<number>): { wrong: string[]; left: number; n: number } {
  const wrong: string[] = [];
  let left = 0;
  let n = 0;
  for (const x of values) {
    n++;
    buffer.fill(0x7e);
    const end = putDouble(buffer, 3, x);
    if (end < 0) {
      left++;
      expect(buffer.every((c) => c === 0x7e)).toBe(true);
      continue;
    }
    const text = buffer.toString('latin1', 3, end);
    if (text !== String(x) && wrong.length < 10) wrong.push(`${String(x)} written ${text}`);
  }
  return { wrong, left, n };
}

/** A seeded generator (xorshift32): the same values every run. */
function* seeded(count: number): Generator<number> {
  let s = 0x9e3779b9;
  const next = (): number => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
  const bits = new Float64Array(1);
  const words = new Uint32Array(bits.buffer);
  for (let i = 0; i < count; i++) {
    const u = next() + next() / 2 ** 32;
    yield u * 100;
    yield -u;
    yield u ** 9;
    yield Math.round(u * 1e6) / 10 ** (1 + (i % 9));
    yield (i % 997) / ((i % 13) + 1);
    yield 1 - u / 1000;
    words[0] = next() * 2 ** 32;
    words[1] = 0x3ee00000 + Math.floor(next() * 0x07000000); // exponents about 1e-5 to 1e15
    yield bits[0]!;
  }
}

function* edges(): Generator<number> {
  for (let k = -7; k <= 16; k++) {
    for (const m of [1, 2, 5, 10 - 8 * Number.EPSILON, 10 - 16 * Number.EPSILON, 1 - Number.EPSILON / 2, 1 + Number.EPSILON, 2 ** 53 / 1e15]) {
      const x = m * 10 ** k;
      for (const y of [x, x * (1 + Number.EPSILON), x * (1 - Number.EPSILON), Number(`${m}e${k}`)]) {
        yield y;
        yield -y;
      }
    }
  }
  yield* [0.1 + 0.2, 1 / 3, 2 / 3, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, 1e15 - 0.5, 1e-5, 1e-5 * (1 - Number.EPSILON), 5e-324, Number.MAX_VALUE, 0, -0];
  yield* [0.9999990000010001, 0.99999950000025, 13.333333333333332, 21.959746082288476, 0.7874015748031497];
}

function corpusFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return corpusFiles(file);
    return /\.(traj|json|jsonl)$/.test(name) ? [file] : [];
  });
}

describe('putDouble', () => {
  it('writes String(x) for every score and reward of the corpus runs', () => {
    const analyzers = defaultAnalyzers();
    const values: number[] = [];
    let runs = 0;
    for (const file of corpusFiles(CORPUS_DIR)) {
      const parsed = parseTrajectoryText(readFileSync(file, 'utf8'), 'auto', file);
      if (!parsed.ok) continue;
      runs++;
      const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
      for (const step of parsed.value.steps.slice(0, 300)) {
        const r = scorer.push(step);
        values.push(r.score.total, r.score.coh, r.score.temp, r.reward);
      }
    }
    expect(runs).toBeGreaterThan(20);
    const { wrong, n } = mismatches(values);
    expect(wrong).toEqual([]);
    expect(n).toBeGreaterThan(1000);
    // Fractional scores are the fast path's case (integers are the frame writer's own): few are left to String.
    const fractional = values.filter((x) => !Number.isInteger(x));
    expect(mismatches(fractional).left / fractional.length).toBeLessThan(0.01);
  });

  it('writes String(x) for seeded random doubles, or leaves them to String', () => {
    const { wrong, left, n } = mismatches(seeded(30_000));
    expect(wrong).toEqual([]);
    // The shapes reach past [1e-5, 1e15) on purpose (u ** 9, random exponents): those are left to String.
    expect(left / n).toBeLessThan(0.15);
  });

  it('writes String(x) at the edges: powers of ten and their neighbours, 2^53, the range ends, ties', () => {
    expect(mismatches(edges()).wrong).toEqual([]);
  });

  it('leaves exponent forms, and what it cannot settle, to String (nothing written)', () => {
    for (const x of [1e-7, 1e21, 1e15, -1e16, 5e-324, Number.MAX_VALUE]) expect(putDouble(buffer, 0, x)).toBe(-1);
  });
});

describe("a score frame's doubles", () => {
  it('are written without String (and are the bytes of JSON.stringify)', () => {
    const frame: ScoreMessage = {
      type: 'score',
      session: 's1',
      seq: 7,
      t: 6,
      stage: 'E',
      score: { total: 23.16259617582624, struct: 3.508771929824561, cov: 0.7874015748031497, coh: 0.9999990000010001, temp: 0.6383637586754529 },
      reward: -1.2028500935377657,
      tier: 'Ideal',
      reference: { kind: 'prior' },
      pPass: 0.3333333333333333,
    };
    const calls = vi.spyOn(globalThis, 'String');
    try {
      const bytes = frameBytes(frame);
      expect(calls).not.toHaveBeenCalled();
      expect(bytes.toString('utf8')).toBe(JSON.stringify(frame));
    } finally {
      calls.mockRestore();
    }
  });
});
