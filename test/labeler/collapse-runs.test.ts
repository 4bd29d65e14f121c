/**
 * `collapseWhitespace` rewrote every whitespace run, a lone space too, into a space: a 1 MB shell step's 64 KiB head
 * of `echo a && ` made 19,661 replacements for a text that comes out as it went in (T105). It now rewrites only runs
 * of two or more and lone characters other than a space. Counted in the pattern's matches, never timed; its output is
 * `/\s+/g`'s on every string of the corpus logs and on random text of every whitespace character JS knows.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_NORMALIZED_CHARS, RUNS_TO_COLLAPSE, collapseWhitespace } from '../../src/core/state/normalize.js';
import { corpusStrings } from '../fixtures/corpus-runs.js';

/** What collapsing always meant: every run of `\s` one space, none at either end. */
const collapsedAsBefore = (text: string): string => text.replace(/\s+/g, ' ').trim();
const matches = (pattern: RegExp, text: string): number => text.match(new RegExp(pattern.source, 'g'))?.length ?? 0;
/** Every character `\s` takes (ECMAScript's WhiteSpace and LineTerminator). */
const SPACES = [' ', '\t', '\n', '\v', '\f', '\r', '\u00a0', '\u1680', '\u2000', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff'];

describe('collapseWhitespace rewrites only the runs that change', () => {
  it('a head of single-spaced commands is not rewritten at all', () => {
    const head = 'echo a && '.repeat(100_000).slice(0, MAX_NORMALIZED_CHARS);
    expect(matches(RUNS_TO_COLLAPSE, head)).toBe(0);
    expect(matches(/\s+/, head)).toBeGreaterThan(19_000);
    expect(collapseWhitespace(head)).toBe(collapsedAsBefore(head));
  });

  it('gives what /\\s+/g gave on every string of the corpus logs', () => {
    let rewritten = 0;
    let before = 0;
    for (const text of corpusStrings()) {
      expect(collapseWhitespace(text)).toBe(collapsedAsBefore(text));
      rewritten += matches(RUNS_TO_COLLAPSE, text);
      before += matches(/\s+/, text);
    }
    expect(rewritten).toBeLessThan(before / 2);
  });

  it('gives what /\\s+/g gave on random text of every whitespace character', () => {
    const piece = fc.oneof(fc.constantFrom(...SPACES), fc.constantFrom('a', 'bc', '\ud800', '\udc00', '-'));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (parts) => {
        const text = parts.join('');
        expect(collapseWhitespace(text)).toBe(collapsedAsBefore(text));
      }),
      { numRuns: 5000 },
    );
  });
});
