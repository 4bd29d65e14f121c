/**
 * Long runs of one character in a streamed step are tokenised and labelled in linear time on the event loop the
 * sessions share. Two patterns backtracked on them: a command's redirection stripper (`\d*>&\d+`, quadratic on a run of
 * digits: 64 KiB of `1` held the loop 2.2 s) and the OpenHands skill-call test (two adjacent `\s*`, quadratic on
 * blanks at the start of a code cell: 64 KiB, 2.1 s). Each is checked against the old pattern on every real corpus
 * text and on small generated texts, then fed a megabyte run: the old patterns hold the test for minutes on those (it
 * does not end: measured with `timeout 300`), the new code milliseconds. No timing is asserted.
 */
import { describe, expect, it } from 'vitest';
import { SKILL_CALL } from '../../src/core/labeler/action-intent.js';
import { commandTokens } from '../../src/core/state/normalize.js';
import { corpusActionTexts } from '../fixtures/corpus-runs.js';
import { generated, run } from './helpers.js';

const OLD_REDIRECTION = /\d*>&\d+|\b\d+>>?|&>>?/g;
const OLD_SKILL_CALL = /^\s*(?:print\()?\s*(\w+)\(\s*(?:[rRuU]?(?:'([^'\n]*)'|"([^"\n]*)"))?/;
const MB = 1 << 20;

/** commandTokens as it was, with the old redirection pattern. */
function oldTokens(normalized: string): string[] {
  const set = new Set<string>();
  for (const t of normalized.replace(OLD_REDIRECTION, ' ').split(/[\s'"`|;&<>(){}]+/)) if (t !== '' && !t.startsWith('-')) set.add(t);
  return [...set].sort();
}

describe('long runs of one character in streamed steps', () => {
  it('commandTokens and the skill-call test say what the old patterns said, on every corpus text', () => {
    const texts = corpusActionTexts().flat();
    expect(texts.length).toBeGreaterThan(1000);
    for (const text of texts) {
      expect(commandTokens(text)).toEqual(oldTokens(text));
      expect(SKILL_CALL.exec(text), text.slice(0, 200)).toEqual(OLD_SKILL_CALL.exec(text));
    }
  });

  it('... and on generated texts', () => {
    const parts = ['1', '12', '2>&1', '>&', '>>', '&>', '>', '&', ' ', '\t', '\n', 'a', '_', 'print(', '(', "'a.py'", '"x"', 'open_file', 'r'];
    for (const text of generated(parts, 30_000)) {
      const shown = JSON.stringify(text);
      expect(commandTokens(text), shown).toEqual(oldTokens(text));
      expect(SKILL_CALL.exec(text), shown).toEqual(OLD_SKILL_CALL.exec(text));
    }
  });

  it('a megabyte of digits in a command and of blanks before a code cell are labelled (the old patterns ran for minutes)', () => {
    const tokens = commandTokens(`echo ${'1'.repeat(MB)}x 2>&1`);
    expect(tokens.map((t) => t.length)).toEqual([MB + 1, 4]); // the digits and `x`, then `echo` (sorted); `2>&1` dropped
    expect(SKILL_CALL.exec(`${' '.repeat(MB)}x`)).toBeNull();
    expect(SKILL_CALL.exec(`${' '.repeat(MB)}print(  open_file('a.py')`)?.slice(1, 3)).toEqual(['open_file', 'a.py']);
    const steps = (n: number) => run([`echo ${'1'.repeat(n)}`, { kind: 'code', language: 'python', code: `${' '.repeat(n)}x` }]);
    expect(steps(MB).map((s) => s.state.stage)).toEqual(steps(3).map((s) => s.state.stage));
  });
});
