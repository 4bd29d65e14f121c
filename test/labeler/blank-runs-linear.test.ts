/**
 * Runs of blanks and newlines in a step a tenant streams are handled in linear time on the event loop the sessions
 * share. Three patterns backtracked on them: a shell command or code cell's trailing-blank trim (`/[ \t]+$/gm`,
 * quadratic: 100 KB of spaces then a letter held the loop 12 s), the coder `plan ... end_of_plan` test (cubic: 4 KB
 * of newlines, 12 s) and a SWE-agent 0.x action's trim and `edit` block (quadratic: 160 KB, 11.6 s). Each is checked
 * against the old pattern on every real corpus text and on small generated texts, then fed a megabyte run: the old
 * patterns take hours on those (the test's timeout fails them), the new code milliseconds. No timing is asserted.
 */
import { describe, expect, it } from 'vitest';
import { CODER_PLAN } from '../../src/core/labeler/labeler.js';
import { MAX_NORMALIZED_CHARS, md5 } from '../../src/core/state/normalize.js';
import { exactAction, trimLines } from '../../src/core/state/variant.js';
import { aciAction } from '../../src/formats/aci-commands.js';
import { corpusActionTexts } from '../fixtures/corpus-runs.js';
import { generated, run } from './helpers.js';

const OLD_TRIM = (text: string) =>
  text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .trim();
const OLD_PLAN = /^\s*plan\s*\n[\s\S]*\n\s*end_of_plan\s*$/;
const OLD_EDIT = /^edit\s+(\d+):(\d+)\s*\n([\s\S]*?)\n?end_of_edit\s*$/;
const MB = 1 << 20;

describe('blank runs in streamed steps', () => {
  it('trimLines, CODER_PLAN and the 0.x edit block say what the old patterns said, on every corpus text', () => {
    const texts = corpusActionTexts().flat();
    expect(texts.length).toBeGreaterThan(1000);
    for (const text of texts) {
      expect(trimLines(text)).toBe(OLD_TRIM(text));
      expect(CODER_PLAN.test(text), text.slice(0, 200)).toBe(OLD_PLAN.test(text));
    }
  });

  it('... and on generated texts', () => {
    const parts = [' ', '\t', '\n', '\r', '\r\n', '\u2028', '\u00a0', 'x', 'plan', 'end_of_plan', 'edit 1:2', 'end_of_edit', ' 3:4'];
    for (const text of generated(parts, 30_000)) {
      const shown = JSON.stringify(text);
      expect(trimLines(text), shown).toBe(OLD_TRIM(text));
      expect(CODER_PLAN.test(text), shown).toBe(OLD_PLAN.test(text));
      const action = `edit 1:2${text}`;
      const m = OLD_EDIT.exec(action.replace(/\s+$/, ''));
      const want = m === null ? { kind: 'other', name: 'edit' } : { kind: 'edit', op: 'replace_lines', path: 'a.py', range: [Number(m[1]), Number(m[2])], new: m[3] ?? '' };
      expect(aciAction(action, 'a.py', undefined), shown).toEqual(want);
    }
  });

  it('a megabyte of blanks in a command, a code cell or a 0.x edit is labelled (the old patterns ran for hours)', () => {
    const spaces = `ls${' '.repeat(MB)}x`;
    // Past MAX_NORMALIZED_CHARS a text is trimmed by its head, the rest hashed as written (huge-step-bounded.test.ts).
    const rest = md5(spaces.slice(MAX_NORMALIZED_CHARS));
    expect(exactAction({ kind: 'shell', command: spaces }, 'bash', undefined, '.', undefined)).toBe(`.\0ls\0${rest}`);
    expect(exactAction({ kind: 'code', language: 'python', code: spaces }, 'python', undefined, '.', undefined)).toBe(`ls\0${rest}`);
    const plan = `plan\n${'\n'.repeat(MB)}x`;
    expect(CODER_PLAN.test(plan)).toBe(false);
    const [shell, code, planned] = run([spaces, { kind: 'code', language: 'python', code: spaces }, plan]);
    expect([shell?.state.stage, code?.state.stage, planned?.state.stage]).toHaveLength(3);
    expect(aciAction(`edit 1:2\n${' '.repeat(MB)}x`, 'a.py', undefined)).toEqual({ kind: 'other', name: 'edit' });
    expect(aciAction(`edit 1:2${'\n'.repeat(MB)}x`, 'a.py', undefined)).toEqual({ kind: 'other', name: 'edit' });
    expect(aciAction(`edit 1:2\n${' '.repeat(MB)}x\nend_of_edit`, 'a.py', undefined)).toMatchObject({ kind: 'edit', range: [1, 2] });
  });
});
