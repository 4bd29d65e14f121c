/**
 * The packed shadow workspace behaves exactly like the sparse-array one it
 * replaced (every return value, prefix and size after every operation), over
 * random operation sequences including holes, huge line numbers, newlines
 * inside lines, long (deflated) runs, out-of-range splices, eviction and compaction (`compact`).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLD_STEPS } from '../../src/core/state/cold-files.js';
import { lineCount, plainLines } from '../../src/core/state/numbered-text.js';
import { ShadowWorkspace } from '../../src/core/state/shadow-workspace.js';
import { fileLength, fileRuns, observeJoined, observePacked, pack, packedSize, unpack, type PackedFile } from '../../src/core/state/packed-lines.js';
import { HOT_TEXTS, packText, setTextCompression } from '../../src/core/memory/packed-text.js';
import { SparseWorkspace } from './sparse-workspace.js';

// Compression is off by default (a memory/CPU knob, `serve --compress-texts`); these tests exercise it on.
beforeAll(() => setTextCompression(true));
afterAll(() => setTextCompression(false));

const FILES = ['a.py', 'b.py', 'pkg/c.py'];
const file = fc.constantFrom(...FILES);
const word = fc.constantFrom('x = 1', 'def f():', '    return x', '', 'class A:', 'é ü 😀', 'a\nb', '\uD800', 'import os');
const longText = fc.array(word, { minLength: 0, maxLength: 80 }).map((ws) => ws.join('\n'));
const lineNo = fc.oneof(fc.integer({ min: -2, max: 40 }), fc.constantFrom(300, 5000, 2 ** 32 + 5));
const range = fc.tuple(fc.integer({ min: -1, max: 45 }), fc.integer({ min: -1, max: 45 }));

type Op =
  | { op: 'observe'; file: string; lines: Array<[number, string]> }
  | { op: 'observeWindow'; file: string; first: number; texts: string[] }
  | { op: 'observeWindowText'; file: string; first: number; text: string }
  | { op: 'setText' | 'forget'; file: string; text: string }
  | { op: 'replace'; file: string; old: string; text: string }
  | { op: 'replaceLines'; file: string; range: [number, number]; text: string }
  | { op: 'insert'; file: string; after: number; text: string }
  | { op: 'settle' }
  | { op: 'compact' };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('observe' as const), file, lines: fc.array(fc.tuple(lineNo, word), { maxLength: 30 }) }),
  fc.record({
    op: fc.constant('observe' as const),
    file,
    lines: fc.tuple(fc.integer({ min: 1, max: 30 }), fc.array(word, { minLength: 1, maxLength: 60 })).map(([s, ws]) => ws.map((w, i): [number, string] => [s + i, w])),
  }),
  fc.record({ op: fc.constant('observeWindow' as const), file, first: lineNo, texts: fc.array(word, { maxLength: 60 }) }),
  // A ranged read's output as it comes (newlines inside words make more lines; a trailing one adds none).
  fc.record({
    op: fc.constant('observeWindowText' as const),
    file,
    first: lineNo,
    text: fc.oneof(
      longText,
      longText.map((t) => `${t}\n`),
    ),
  }),
  fc.record({ op: fc.constantFrom('setText' as const, 'forget' as const), file, text: longText }),
  fc.record({
    op: fc.constant('replace' as const),
    file,
    old: fc.oneof(
      word,
      longText.map((t) => t.slice(0, 30)),
    ),
    text: longText,
  }),
  fc.record({ op: fc.constant('replaceLines' as const), file, range, text: longText }),
  fc.record({ op: fc.constant('insert' as const), file, after: fc.integer({ min: -1, max: 50 }), text: longText }),
  fc.record({ op: fc.constant('settle' as const) }),
  fc.record({ op: fc.constant('compact' as const) }),
);

function apply(ws: ShadowWorkspace | SparseWorkspace, o: Op): unknown {
  switch (o.op) {
    case 'observe':
      return ws.observe(o.file, new Map(o.lines));
    case 'observeWindow':
      // The sparse workspace is told the same lines as a map (what observeWindow stands for).
      if (ws instanceof ShadowWorkspace) return ws.observeWindow(o.file, o.first, o.texts);
      return ws.observe(o.file, new Map(o.texts.map((t, i): [number, string] => [o.first + i, t])));
    case 'observeWindowText': {
      // Told as the lines `plainLines` splits the text into (what observeShellRead gave observeWindow before).
      const lines = plainLines(o.text);
      if (ws instanceof ShadowWorkspace) {
        const joined = o.text.endsWith('\n') ? o.text.slice(0, -1) : o.text;
        return ws.observeWindowText(o.file, o.first, joined, lines.length);
      }
      return ws.observe(o.file, new Map(lines.map((t, i): [number, string] => [o.first + i, t])));
    }
    case 'setText':
      return ws.setText(o.file, o.text);
    case 'forget':
      return ws.forget(o.file);
    case 'replace':
      return ws.replace(o.file, o.old, o.text);
    case 'replaceLines':
      return ws.replaceLines(o.file, o.range, o.text);
    case 'insert':
      return ws.insert(o.file, o.after, o.text);
    case 'settle':
      // Ends of steps (no visible change): the checks below use every file, so only the second settle packs the hot file.
      if (ws instanceof ShadowWorkspace) {
        ws.settle();
        ws.settle();
      }
      return undefined;
    case 'compact':
      // An idle session's (no visible change): every text deflated, the hot file packed.
      if (ws instanceof ShadowWorkspace) ws.compact();
      return undefined;
  }
}

describe('packed shadow workspace', () => {
  it('matches the sparse-array workspace after every operation', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), fc.constantFrom(1_000_000, 400, 60), (ops, budget) => {
        const packed = new ShadowWorkspace(budget);
        const sparse = new SparseWorkspace(budget);
        for (const o of ops) {
          expect(apply(packed, o)).toEqual(apply(sparse, o));
          expect(packed.size).toBe(sparse.size);
          for (const f of FILES) {
            expect(packed.prefix(f)).toEqual(sparse.prefix(f));
            expect(packed.locate(f, 'x = 1\ndef')).toEqual(sparse.locate(f, 'x = 1\ndef'));
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('a window of lines set on a packed file packs as the whole array would (runs that touch it merged)', () => {
    const shape = (f: PackedFile) => ({ length: fileLength(f), runs: fileRuns(f).map((r) => [r.start, r.count]), size: packedSize(f) });
    const window = fc.tuple(fc.integer({ min: 0, max: 14 }), fc.array(word, { minLength: 1, maxLength: 6 }));
    fc.assert(
      fc.property(fc.array(window, { maxLength: 4 }), window, fc.integer({ min: 0, max: 20 }), (before, [start, lines], length) => {
        const arr: Array<string | undefined> = [];
        for (const [at, ws] of before) ws.forEach((w, i) => (arr[at + i] = w));
        if (arr.length < length) arr.length = length;
        const file = arr.length === 0 ? undefined : pack(arr);
        const next = arr.slice();
        let delta = 0;
        lines.forEach((w, i) => {
          delta += w.length + 1 - (next[start + i] === undefined ? 0 : next[start + i]!.length + 1);
          next[start + i] = w;
        });
        const got = observePacked(file, start, lines)!;
        expect(shape(got.packed)).toEqual(shape(pack(next)));
        expect([...unpack(got.packed)]).toEqual([...next]);
        expect(got.delta).toBe(delta);
      }),
      { numRuns: 500 },
    );
  });

  it('a window kept from its joined text packs as the window of its lines, when it touches no run', () => {
    const shape = (f: PackedFile) => ({ length: fileLength(f), runs: fileRuns(f).map((r) => [r.start, r.count]), size: packedSize(f) });
    const window = fc.tuple(fc.integer({ min: 0, max: 30 }), fc.array(word, { minLength: 1, maxLength: 6 }));
    let joinedTaken = 0;
    fc.assert(
      fc.property(fc.array(window, { maxLength: 4 }), window, fc.integer({ min: 0, max: 40 }), (before, [start, words], length) => {
        const arr: Array<string | undefined> = [];
        for (const [at, ws] of before) ws.forEach((w, i) => (arr[at + i] = w));
        if (arr.length < length) arr.length = length;
        const file = arr.length === 0 ? undefined : pack(arr);
        // The words as a read's output: a word holding a newline is two lines.
        const joined = words.join('\n');
        const lines = plainLines(`${joined}\n`);
        expect(lineCount(joined)).toBe(lines.length);
        const got = observeJoined(file, start, joined, lines.length);
        const touches = fileRuns(file ?? pack([])).some((r) => r.start <= start + lines.length && r.start + r.count >= start);
        expect(got === undefined).toBe(touches);
        if (got === undefined) return;
        joinedTaken++;
        const want = observePacked(file, start, lines)!;
        expect(shape(got.packed)).toEqual(shape(want.packed));
        expect([...unpack(got.packed)]).toEqual([...unpack(want.packed)]);
        expect(got.delta).toBe(want.delta);
      }),
      { numRuns: 500 },
    );
    expect(joinedTaken).toBeGreaterThan(100);
  });

  it('a window seen again unchanged leaves the packed file as it is; a line with a newline never equals two lines', () => {
    const file = pack(['def f():', '    return x', '', 'class A:', '    pass']);
    expect(observePacked(file, 1, ['    return x', ''])).toEqual({ packed: file, delta: 0 });
    expect(observePacked(file, 3, ['class A:', '    pass'])!.packed).toBe(file);
    expect(observePacked(file, 2, ['', 'class A:', '    pas'])!.packed).not.toBe(file);
    const split = observePacked(file, 0, ['def f():\n    return x'])!;
    expect([...unpack(split.packed)]).toEqual(['def f():\n    return x', '    return x', '', 'class A:', '    pass']);
    expect(split.delta).toBe(13);
  });

  it('pack/unpack keeps length, lines, holes and named properties', () => {
    const arr: Array<string | undefined> = [];
    arr[0] = 'a';
    arr[1] = 'b';
    arr[4] = 'x\ny';
    arr[9] = 'long '.repeat(100);
    arr.length = 12;
    (arr as unknown as Record<string, string>)['4294967300'] = 'far';
    const packed = pack(arr, undefined, true);
    // Each known line's text and newline, the named one too.
    expect(packedSize(packed)).toBe(2 + 2 + 4 + 501 + 4);
    const back = unpack(packed);
    expect(back.length).toBe(12);
    expect(Object.keys(back)).toEqual(Object.keys(arr));
    expect([...back]).toEqual([...arr]);
    expect((back as unknown as Record<string, string>)['4294967300']).toBe('far');
  });

  it('packs alike walked by index or by keys, sparse or dense, long or short', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5000 }), fc.array(fc.tuple(fc.nat(5000), fc.integer({ min: 1, max: 60 })), { maxLength: 6 }), (length, windows) => {
        const arr: Array<string | undefined> = [];
        for (const [at, n] of windows) for (let i = at; i < Math.min(at + n, length); i++) arr[i] = `line ${i}${i % 9 === 0 ? ' '.repeat(40) : ''}`;
        arr.length = Math.max(arr.length, length);
        const [auto, byIndex, byKeys] = (['auto', 'index', 'keys'] as const).map((walk) => pack(arr, undefined, false, walk));
        expect(byKeys).toEqual(byIndex);
        expect(auto).toEqual(byIndex);
        expect([...unpack(auto!)]).toEqual([...arr]);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a long run deflated once cold, smaller than its text', () => {
    const lines = Array.from({ length: 200 }, (_, i) => `    value_${i % 7} = compute(value_${i % 5})`);
    const packed = pack(lines);
    expect(fileRuns(packed)).toHaveLength(1);
    expect(typeof fileRuns(packed)[0]?.text).toBe('object');
    for (let i = 0; i < HOT_TEXTS; i++) packText(`${i} ${'y'.repeat(400)}`);
    expect(JSON.stringify(packed).length).toBeLessThan(lines.join('\n').length / 3);
    expect(unpack(packed)).toEqual(lines);
  });
});

describe('a released workspace', () => {
  /**
   * A workspace that viewed `n` long files (packed: deflatable texts in the hot set), a step each: fewer than
   * COLD_STEPS steps, so none has gone unused long enough to be deflated on the step path.
   */
  function viewed(tag: string, n: number): ShadowWorkspace {
    expect(n).toBeLessThanOrEqual(COLD_STEPS);
    const ws = new ShadowWorkspace();
    for (let f = 0; f < n; f++) {
      ws.observe(`${tag}/f${f}.py`, new Map(Array.from({ length: 60 }, (_, i) => [i + 1, `    ${tag}_${f}_${i} = compute(${i})`] as [number, string])));
      ws.settle();
    }
    return ws;
  }
  const zlib = process.getBuiltinModule('node:zlib');

  it('leaves its texts inflated and out of the hot set: its session ended, so deflating them would be wasted', () => {
    const deflates = (release: boolean): number => {
      const ws = viewed(release ? 'released' : 'kept', 8);
      if (release) ws.release();
      const real = zlib.deflateRawSync;
      let calls = 0;
      zlib.deflateRawSync = (...args: Parameters<typeof real>) => (calls++, real(...args));
      try {
        for (let i = 0; i < 2 * HOT_TEXTS; i++) packText(`${release} ${i} ${'v'.repeat(400)}`);
      } finally {
        zlib.deflateRawSync = real;
      }
      expect(ws.prefix(`${release ? 'released' : 'kept'}/f0.py`)?.lines).toBe(60);
      return calls;
    };
    const kept = deflates(false);
    const released = deflates(true);
    expect(kept - released).toBeGreaterThanOrEqual(8);
  });
});
