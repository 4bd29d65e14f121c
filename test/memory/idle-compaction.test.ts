/**
 * `Scorer.compact` (an idle session's texts deflated, whatever the compression setting; bench/memory.ts's idle rows):
 * a scorer compacted between steps gives every result, state and report a scorer never compacted gives, on every
 * real run, and its workspace's texts are really kept deflated until a step reads them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ShadowWorkspace } from '../../src/core/state/shadow-workspace.js';
import { compactText, LazyText, PACK_MIN_CHARS } from '../../src/core/memory/packed-text.js';
import { compactPacked, fileRuns, pack, unpack } from '../../src/core/state/packed-lines.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';
import { scoredRun, zlibCalls } from './zlib-calls.js';
import { createVariantTracker } from '../../src/core/state/variant.js';
import { SparseWorkspace } from './sparse-workspace.js';

describe('an idle scorer compacted', () => {
  it('gives every result, state and report of every real run that it gives never compacted', () => {
    let deflates = 0;
    let inflates = 0;
    for (const run of corpusRuns()) {
      const plain = scoredRun(run.steps, () => false);
      // After every step, and after every seventh (texts read again later, some after several steps).
      for (const every of [1, 7]) {
        const got = zlibCalls(() => scoredRun(run.steps, (t) => t % every === every - 1));
        expect(got.value).toBe(plain);
        deflates += got.deflates;
        inflates += got.inflates;
      }
    }
    // The runs' workspaces were really deflated, and read back from their deflated form.
    expect(deflates).toBeGreaterThan(100);
    expect(inflates).toBeGreaterThan(50);
  });

  it('a workspace compacted between any operations on long texts matches the sparse-array one (compression off)', () => {
    const FILES = ['a.py', 'b.py'];
    const file = fc.constantFrom(...FILES);
    const word = fc.constantFrom('x = 1', 'def f():', '    return x', '', 'class A:', 'é ü 😀', 'a\nb', 'import os');
    // Long enough to be deflated (256 characters and more, some past the shared texts' 1,024).
    const text = fc.array(word, { minLength: 40, maxLength: 200 }).map((ws) => ws.join('\n'));
    const op = fc.oneof(
      fc.record({ op: fc.constant('setText' as const), file, text }),
      fc.record({ op: fc.constant('window' as const), file, first: fc.integer({ min: 1, max: 120 }), text }),
      fc.record({ op: fc.constant('replace' as const), file, old: word, text: word }),
      fc.record({ op: fc.constant('compact' as const) }),
    );
    let deflated = 0;
    fc.assert(
      fc.property(fc.array(op, { minLength: 4, maxLength: 16 }), (ops) => {
        const ws = new ShadowWorkspace();
        const sparse = new SparseWorkspace();
        for (const o of ops) {
          if (o.op === 'compact') deflated += zlibCalls(() => ws.compact()).deflates;
          else if (o.op === 'setText') [ws, sparse].forEach((w) => w.setText(o.file, o.text));
          else if (o.op === 'replace') expect(ws.replace(o.file, o.old, o.text)).toEqual(sparse.replace(o.file, o.old, o.text));
          else {
            const lines = o.text.split('\n');
            ws.observeWindow(o.file, o.first, lines);
            sparse.observe(o.file, new Map(lines.map((l, i): [number, string] => [o.first + i, l])));
          }
          ws.settle();
          expect(ws.size).toBe(sparse.size);
          for (const f of FILES) expect(ws.prefix(f)).toEqual(sparse.prefix(f));
        }
      }),
      { numRuns: 150 },
    );
    expect(deflated).toBeGreaterThan(100);
  });

  it('the variant keys compacted between any steps answer as never compacted', () => {
    const call = fc.oneof(fc.tuple(fc.constantFrom('h1', 'h2', 'h3', 'h4'), fc.option(fc.constantFrom(1, 2, 2 ** 52 - 1), { nil: undefined })), fc.constant('compact' as const));
    fc.assert(
      fc.property(fc.array(call, { maxLength: 40 }), (calls) => {
        const plain = createVariantTracker();
        const compacted = createVariantTracker();
        for (const c of calls) {
          if (c === 'compact') compacted.compact();
          else expect(compacted.isVariant(...c)).toBe(plain.isVariant(...c));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a workspace text deflated until it is read, then reads it inflated, once', () => {
    const lines = Array.from({ length: 120 }, (_, i) => `    value_${i % 7} = compute(value_${i % 5}, ${i})`);
    const ws = new ShadowWorkspace();
    ws.setText('a.py', `${lines.join('\n')}\n`);
    ws.observe('b.txt', new Map(lines.slice(0, 12).map((l, i): [number, string] => [i + 1, l])));
    ws.settle();
    const size = ws.size;
    const compacted = zlibCalls(() => ws.compact());
    // a.py (the hot file: packed, then deflated) and b.txt's 12 lines (under the shared texts' 1,024 characters).
    expect(compacted.deflates).toBe(2);
    expect(ws.size).toBe(size);
    const read = zlibCalls(() => [ws.prefix('a.py'), ws.prefix('a.py'), ws.locate('b.txt', lines[3]!)]);
    expect(read.value).toEqual([{ text: lines.join('\n'), lines: 120 }, { text: lines.join('\n'), lines: 120 }, [4, 4]]);
    expect(read.inflates).toBe(2);
    // A second compaction drops the inflated copies without deflating again.
    expect(zlibCalls(() => ws.compact()).deflates).toBe(0);
  });

  it('packed files keep their lines; short and lone-surrogate texts stay plain strings', () => {
    const long = Array.from({ length: 40 }, (_, i) => `line ${i % 3} of the file`);
    const arr: Array<string | undefined> = [...long];
    arr[50] = 'x\ny';
    arr[60] = 'short';
    arr[70] = `${'\uD800'}${'z'.repeat(PACK_MIN_CHARS)}`;
    const file = pack(arr);
    const compacted = compactPacked(file);
    const texts = fileRuns(compacted).map((r) => r.text);
    expect(texts[0]).toBeInstanceOf(LazyText);
    expect((texts[0] as LazyText).peek()).toBeUndefined();
    expect(texts.slice(1)).toEqual(
      fileRuns(file)
        .slice(1)
        .map((r) => r.text),
    );
    expect([...unpack(compacted)]).toEqual([...arr]);
    // Nothing to deflate: the same file back.
    const small = pack(['a', 'b']);
    expect(compactPacked(small)).toBe(small);
    const surrogate = `${'\uD800'}${'z'.repeat(PACK_MIN_CHARS)}`;
    expect(compactText(surrogate)).toBe(surrogate);
  });
});
