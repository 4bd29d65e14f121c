/**
 * One step whose command is a 900 KB frame of 450,000 one-letter words (under the frame cap) held the event loop of
 * every tenant 300-750 ms: whitespace collapsing, root rewriting and trimming ran over the whole text (a regex match
 * per word), and the bash walk made an object per word of the 16 KiB the parser sees. Now a text is normalised by its
 * first MAX_NORMALIZED_CHARS characters, the rest hashed as written, and a walk reads a bounded number of children.
 * Asserted on sizes and counts, never on time; real texts are all within the bound, so their hashes do not change.
 */
import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/core/types.js';
import { MAX_NORMALIZED_CHARS, collapseWhitespace, hashContent, md5, normalizeBounded, normalizeCommand } from '../../src/core/state/normalize.js';
import { terminalFacts } from '../../src/core/state/terminal-facts.js';
import { exactAction } from '../../src/core/state/variant.js';
import { corpusActionTexts } from '../fixtures/corpus-runs.js';

const WORDS = 450_000;
const huge = (sep: string, tail = ''): string => `${Array.from({ length: WORDS }, () => 'a').join(sep)}${tail}`;
const shell = (command: string): Action => ({ kind: 'shell', command });
/** The digest's share of a bounded text: NUL and 32 hex digits, plus the kind's and directory's prefixes. */
const SLACK = 64;

describe('a huge step is normalised by a bounded head', () => {
  it('every real action text is within the bound, so its normalised form (and hash) is what it was', () => {
    const texts = corpusActionTexts().flat();
    expect(texts.length).toBeGreaterThan(1000);
    for (const text of texts) {
      expect(text.length).toBeLessThanOrEqual(MAX_NORMALIZED_CHARS);
      expect(normalizeBounded(text, collapseWhitespace)).toBe(collapseWhitespace(text));
    }
  });

  it('the text hashed and the exact form of a 900 KB command stay within the bound', () => {
    for (const sep of [' ', '\t', '\n', ' \n']) {
      const action = shell(huge(sep));
      expect(hashContent(action, undefined).length).toBeLessThanOrEqual(MAX_NORMALIZED_CHARS + SLACK);
      expect(exactAction(action, 'bash', undefined, '.', undefined)!.length).toBeLessThanOrEqual(MAX_NORMALIZED_CHARS + SLACK);
      const code: Action = { kind: 'code', language: 'python', code: huge(sep) };
      expect(hashContent(code, undefined).length).toBeLessThanOrEqual(MAX_NORMALIZED_CHARS + SLACK);
      const edit: Action = { kind: 'edit', op: 'str_replace', path: 'a.py', old: huge(sep), new: huge(sep) };
      expect(hashContent(edit, 'a.py').length).toBeLessThanOrEqual(2 * (MAX_NORMALIZED_CHARS + SLACK));
    }
  });

  it('the hash still covers the whole text: whitespace is collapsed in the head, the rest is taken as written', () => {
    const base = huge(' ');
    const h = (command: string) => md5(hashContent(shell(command), undefined));
    expect(h(`x\t${base}`)).toBe(h(`x ${base}`));
    expect(h(`${base} b`)).not.toBe(h(`${base}  b`));
    expect(h(`${base} b`)).not.toBe(h(`${base} c`));
  });

  it("a command's terminal facts hash what hashContent gives, and its tokens come from the head", () => {
    for (const command of [huge(' ', ' z'), huge('\t', ' y'), `cd /testbed && ${huge(' ')}`]) {
      const facts = terminalFacts('shell', command, '/testbed');
      expect(facts.hash).toBe(md5(hashContent(shell(command), undefined, '/testbed')));
      expect(facts.tokens).toEqual(['a']);
    }
    const small = 'cd /testbed && grep -rn  foo src';
    expect(terminalFacts('shell', small, '/testbed').hash).toBe(md5(`shell\0${normalizeCommand(small, '/testbed')}`));
  });
});
