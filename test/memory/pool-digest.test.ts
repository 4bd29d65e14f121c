/**
 * The shared-text pool compares a new text with a deflated entry by digest, not by inflating the entry
 * (packed-text.ts, `LazyText.equals`; bench/README.md "Memory per session, twelfth pass"): an equal text finds the
 * entry without a zlib call, a different one of the same pool key and length is kept apart without one, and a text
 * whose UTF-8 equals an entry's only because a lone surrogate reads as U+FFFD is never taken for it.
 */
import { describe, expect, it } from 'vitest';
import { LazyText, SHARE_MIN_CHARS, compactText, packText, sampledTextKey, unpackText } from '../../src/core/memory/packed-text.js';
import { zlibCalls } from './zlib-calls.js';

/** A fresh flat copy of `text` (not the same string object). */
const copy = (text: string): string => text.split('').join('');

/** A long text unique to this run, 6,400 characters: the pool key samples every 100th and the last 32, not index 1. */
function longText(tag: string): string {
  const line = `    value_${tag} = compute(${Math.random()})  # a line of a file the agent read\n`;
  return line.repeat(Math.ceil(6400 / line.length)).slice(0, 6400);
}

/** `text` packed into the pool and deflated there (a session done with the file). */
function deflatedEntry(text: string): LazyText {
  const packed = packText(text);
  expect(packed).toBeInstanceOf(LazyText);
  expect(compactText(packed)).toBe(packed);
  expect((packed as LazyText).peek()).toBeUndefined();
  return packed as LazyText;
}

describe('the shared pool against deflated entries', () => {
  it('finds an equal text without inflating the entry, which then reads as the caller copy without zlib', () => {
    const text = longText('equal');
    expect(text.length).toBeGreaterThanOrEqual(SHARE_MIN_CHARS);
    const entry = deflatedEntry(text);
    const again = zlibCalls(() => packText(copy(text)));
    expect(again.value).toBe(entry);
    expect([again.inflates, again.deflates]).toEqual([0, 0]);
    const read = zlibCalls(() => unpackText(entry));
    expect(read.value).toBe(text);
    expect(read.inflates).toBe(0);
    // Deflated again (its bytes kept), it still reads back from them.
    expect(compactText(entry)).toBe(entry);
    expect(zlibCalls(() => unpackText(entry))).toMatchObject({ value: text, inflates: 1 });
  });

  it('keeps a different text of the same pool key and length apart, without inflating the entry', () => {
    const text = longText('differs');
    const other = `${text[0]}${text[1] === 'x' ? 'y' : 'x'}${text.slice(2)}`;
    expect(sampledTextKey(other)).toBe(sampledTextKey(text));
    const entry = deflatedEntry(text);
    const packed = zlibCalls(() => packText(other));
    expect(packed.value).not.toBe(entry);
    expect(packed.inflates).toBe(0);
    expect(unpackText(packed.value)).toBe(other);
    expect(unpackText(entry)).toBe(text);
  });

  it('never takes a text with a lone surrogate for the deflated text its UTF-8 reads as', () => {
    const base = longText('surrogate');
    const wellFormed = `${base[0]}\uFFFD${base.slice(2)}`;
    const lone = `${base[0]}\uD800${base.slice(2)}`;
    expect(Buffer.from(lone, 'utf8').equals(Buffer.from(wellFormed, 'utf8'))).toBe(true);
    expect(sampledTextKey(lone)).toBe(sampledTextKey(wellFormed));
    const entry = deflatedEntry(wellFormed);
    const packed = packText(lone);
    expect(packed).not.toBe(entry);
    expect(unpackText(packed)).toBe(lone);
    expect(unpackText(entry)).toBe(wellFormed);
  });
});
