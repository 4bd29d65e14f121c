/** flatten / intern (equal values, shared copies, bounded pool) and lossless packed text. */
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERN_ENTRIES, flatten, intern, poolSizes } from '../../src/core/memory/flat-string.js';
import { HOT_TEXTS, MAX_BUCKET, SHARE_MIN_CHARS, LazyText, packText, sharedTexts, unpackText, setTextCompression } from '../../src/core/memory/packed-text.js';

// Compression is off by default (a memory/CPU knob, `serve --compress-texts`); these tests exercise it on.
beforeAll(() => setTextCompression(true));
afterAll(() => setTextCompression(false));

describe('flatten and intern', () => {
  it('return equal strings; intern shares one copy per value', () => {
    const obs = `header\n${'src/pkg/module.py '.repeat(50)}`;
    const a = obs.slice(7, 24);
    expect(flatten(a)).toBe('src/pkg/module.py');
    const x = intern(a);
    const y = intern(obs.slice(25, 42));
    expect(x).toBe('src/pkg/module.py');
    expect(Object.is(x, y)).toBe(true);
    expect(intern('x'.repeat(2000))).toBe('x'.repeat(2000));
  });

  it('keeps at most INTERN_ENTRIES strings; recently used ones survive', () => {
    const probe = intern('pool-probe-0123456789');
    for (let i = 0; i < 3 * INTERN_ENTRIES; i++) {
      intern(`pool-filler-${i}-abcdefghijklmnop`);
      if (i % 1000 === 0) expect(Object.is(intern('pool-probe-0123456789'), probe)).toBe(true);
    }
    expect(poolSizes().strings).toBeLessThanOrEqual(INTERN_ENTRIES);
    expect(Object.is(intern('pool-probe-0123456789'), probe)).toBe(true);
  });
});

describe('packed text', () => {
  const samples = ['', 'short', 'def f():\n    return 1\n'.repeat(40), 'é😀 unicode '.repeat(60), `lone ${'\uD800'} surrogate `.repeat(40), 'x\uDC00'.repeat(300)];
  it.each(samples.map((s, i) => [i, s] as const))('round-trips sample %i exactly, hot and cold', (_, s) => {
    const p = packText(s);
    expect(unpackText(p)).toBe(s);
    for (let i = 0; i < HOT_TEXTS; i++) packText(`${i} ${'x'.repeat(300)}`);
    expect(unpackText(p)).toBe(s);
  });

  it('keeps a long text inflated while hot, deflated once cold, equal either way', () => {
    const text = 'def f():\n    return 1\n'.repeat(40);
    const p = packText(text);
    expect(typeof p).toBe('object');
    expect(JSON.stringify(p).length).toBeGreaterThan(text.length);
    for (let i = 0; i < HOT_TEXTS; i++) packText(`${i} ${text}`);
    expect(JSON.stringify(p).length).toBeLessThan(text.length / 4);
    expect(unpackText(p)).toBe(text);
    expect(JSON.stringify(p).length).toBeGreaterThan(text.length);
  });
});

describe('packed text with compression on: shared, released', () => {
  const file = Array.from({ length: 80 }, (_, i) => `    value_${i} = compute(${i})  # pooled while compressed`).join('\n');

  it('sessions packing an equal long text keep one copy, which cools once for all of them', () => {
    const a = packText(file.slice(0));
    const b = packText(`${file}`);
    expect(a).toBeInstanceOf(LazyText);
    expect(Object.is(a, b)).toBe(true);
    for (let i = 0; i < HOT_TEXTS; i++) packText(`${i} ${'z'.repeat(300)}`);
    expect(JSON.stringify(a).length).toBeLessThan(file.length / 4);
    // A deflated entry is inflated to be compared: the next equal text shares it too (no copy of its own).
    const c = packText(`${file}`);
    expect(Object.is(a, c)).toBe(true);
    expect(unpackText(c)).toBe(file);
    // A text of the entry's length and key that differs from it gets a copy of its own; the entry stays deflated.
    for (let i = 0; i < HOT_TEXTS; i++) packText(`${i} ${'y'.repeat(300)}`);
    const twin = `${file.slice(0, 100)}${file[100] === 'a' ? 'b' : 'a'}${file.slice(101)}`;
    const d = packText(twin);
    expect(Object.is(a, d)).toBe(false);
    expect(JSON.stringify(a).length).toBeLessThan(file.length / 4);
    expect([unpackText(a), unpackText(d)]).toEqual([file, twin]);
  });

  it('a released text leaves the hot set without being deflated (its session ended: nobody reads it soon)', () => {
    const text = `${file} released ${Math.random()}`;
    const p = packText(text) as LazyText;
    p.release();
    for (let i = 0; i < HOT_TEXTS; i++) packText(`${i} ${'w'.repeat(300)}`);
    expect(JSON.stringify(p).length).toBeGreaterThan(text.length);
    expect(unpackText(p)).toBe(text);
  });
});

describe('internRange', () => {
  it('shares one frozen copy per range and leaves odd values alone', async () => {
    const { internRange } = await import('../../src/core/memory/flat-string.js');
    const a = internRange([12, 40]);
    expect(a).toEqual([12, 40]);
    expect(internRange([12, 40])).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    const odd: [number, number] = [-0, 1.5];
    expect(internRange(odd)).toBe(odd);
  });
});

describe('shared long texts (compression off)', () => {
  beforeAll(() => setTextCompression(false));
  afterAll(() => setTextCompression(true));
  const file = Array.from({ length: 80 }, (_, i) => `    line_${i} = compute(${i})  # shared`).join('\n');

  it('two sessions keeping an equal long text keep one copy; short and different texts are not merged', () => {
    const observation = `<output>\n${file}\n</output>`;
    const a = packText(observation.slice(9, 9 + file.length));
    const b = packText(`${file}`);
    expect(file.length).toBeGreaterThanOrEqual(SHARE_MIN_CHARS);
    expect(a).toBeInstanceOf(LazyText);
    expect(Object.is(a, b)).toBe(true);
    expect(unpackText(a)).toBe(file);
    const c = packText(`${file}!`);
    expect(Object.is(a, c)).toBe(false);
    expect(unpackText(c)).toBe(`${file}!`);
    expect(typeof packText('x'.repeat(SHARE_MIN_CHARS - 1))).toBe('string');
  });

  it('shares each of two texts of one length that differ in one character (one pool key or two)', () => {
    const base = Array.from({ length: 400 }, (_, i) => `line ${i} of a file the agent edits with sed -i ${Math.random()}`).join('\n');
    const middle = Math.floor(base.length / 2) + 3;
    const other = `${base.slice(0, middle)}${base[middle] === 'x' ? 'y' : 'x'}${base.slice(middle + 1)}`;
    expect(other.length).toBe(base.length);
    const a = packText(base);
    const b = packText(other);
    expect(a).not.toBe(b);
    expect(packText(`${base}`.split('').join(''))).toBe(a);
    expect(packText(`${other}`.split('').join(''))).toBe(b);
    expect([unpackText(a), unpackText(b)]).toEqual([base, other]);
  });

  it('pools at most MAX_BUCKET texts of one key: texts built to collide cost a bounded comparison, and stay exact', () => {
    // 6,400 characters: the key samples every 100th and the last 32, so texts differing at index 1 share it.
    const body = 'y'.repeat(6400);
    const texts = Array.from({ length: 10 }, (_, i) => `${body[0]}${String.fromCharCode(65 + i)}${body.slice(2)}`);
    const before = sharedTexts();
    const packed = texts.map((t) => packText(t));
    expect(sharedTexts() - before).toBe(MAX_BUCKET);
    expect(packed.map((p) => unpackText(p))).toEqual(texts);
    // A pooled text is found again; one past the bound is its session's own copy each time.
    expect(packText(`${texts[0]}`.split('').join(''))).toBe(packed[0]);
    expect(packText(`${texts[9]}`.split('').join(''))).not.toBe(packed[9]);
    expect(unpackText(packText(texts[9]!))).toBe(texts[9]);
  });

  it('drops a text from the pool once nobody keeps it', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 5; i++) {
        await new Promise((r) => setTimeout(r, 10));
        gc();
      }
    };
    await settle();
    const before = sharedTexts();
    // Packed in a closure that returns nothing, so no reference to the shared text survives it.
    ((text: string) => expect(packText(text)).toBeInstanceOf(LazyText))(`${file} unique ${Math.random()}`);
    expect(sharedTexts()).toBe(before + 1);
    await settle();
    expect(sharedTexts()).toBe(before);
  });
});
