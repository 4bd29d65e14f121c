/** The one-line text the web view shows per step: short, one line, saying what the step did. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIRST_READ, STEP_TEXT_MAX, stepText } from '../../src/server/step-text.js';
import { corpusStrings } from '../fixtures/corpus-runs.js';
import { ASTROID, readSteps } from './helpers.js';

/** Every whitespace run of the whole command collapsed, then cut: what a step's line must be. */
const naive = (c: string): string => {
  const one = c.replace(/[ \t\n\v\f\r]+/g, ' ').replace(/^ | $/g, '');
  return one.length > STEP_TEXT_MAX ? `${one.slice(0, STEP_TEXT_MAX - 3)}...` : one;
};

describe('stepText', () => {
  it('is one line of at most STEP_TEXT_MAX characters, the command for shell steps (real run)', async () => {
    const steps = await readSteps(ASTROID.fail);
    for (const s of steps) {
      const text = stepText(s);
      expect(text.length).toBeGreaterThan(0);
      expect(text.length).toBeLessThanOrEqual(STEP_TEXT_MAX);
      expect(text).not.toMatch(/\s{2}|\n/);
      if (s.action.kind === 'shell') {
        const command = s.action.command.replace(/\s+/g, ' ').trim();
        expect(command.length > STEP_TEXT_MAX ? `${command.slice(0, STEP_TEXT_MAX - 3)}...` : command).toBe(text);
      }
    }
    expect(steps.some((s) => s.action.kind === 'shell' && s.action.command.length > STEP_TEXT_MAX)).toBe(true);
  });

  it('equals collapsing every whitespace run of the whole command, then cutting (random commands)', () => {
    // Single spaces between words only (a line that is a slice of its command) as often as runs, ends and other whitespace.
    const chars = fc.oneof(fc.constantFrom('a', 'b', ' ', '  ', '\n', '\t', 'xyz', '\r\n', '\v', '\f'), fc.constantFrom('word ', 'abcdefghij ', 'x'));
    fc.assert(
      fc.property(
        fc.array(chars, { maxLength: 160 }).map((a) => a.join('')),
        (command) => {
          expect(stepText({ t: 0, tool: 'bash', action: { kind: 'shell', command } })).toBe(naive(command));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('equals collapsing then cutting on every string of the corpus logs, non-ASCII and long runs of whitespace included', () => {
    let collapsed = 0;
    for (const command of corpusStrings()) {
      const want = naive(command);
      expect(stepText({ t: 0, tool: 'bash', action: { kind: 'shell', command } })).toBe(want);
      if (/\s{2}|[\t\n\v\f\r]/.test(command.slice(0, 2 * STEP_TEXT_MAX))) collapsed++;
    }
    expect(collapsed).toBeGreaterThan(1000);
  });

  it('names the file or query of non-shell actions', () => {
    const base = { t: 0, tool: 'str_replace_editor' };
    expect(stepText({ ...base, action: { kind: 'view', path: 'a/b.py', range: [3, 9] } })).toBe('view a/b.py 3-9');
    expect(stepText({ ...base, action: { kind: 'edit', op: 'str_replace', path: 'a/b.py', old: 'x', new: 'y' } })).toBe('str_replace a/b.py');
    expect(stepText({ ...base, action: { kind: 'search', query: 'def f', path: 'src' } })).toBe('search def f src');
    expect(stepText({ ...base, action: { kind: 'finish', text: 'done\n\nbye' } })).toBe('finish: done bye');
    expect(stepText({ ...base, action: { kind: 'none' } })).toBe('(no action)');
  });

  // T105: `python: ${code}` joined the prefix to a whole 1 MB cell, and the line's scan flattened it (a copy of it all).
  describe('a long code cell or message is read only as far as its line needs', () => {
    /** `text` as a String object that counts the characters copied out of it (whole, or by `slice`). */
    const counted = (text: string) => {
      const read = { chars: 0 };
      const s = Object.assign(new String(text), {
        toString: () => ((read.chars += text.length), text),
        valueOf: () => ((read.chars += text.length), text),
        slice: (a?: number, b?: number) => {
          const part = text.slice(a, b);
          read.chars += part.length;
          return part;
        },
      });
      return { text: s as unknown as string, read };
    };

    it('reads at most FIRST_READ characters of a 1 MB cell or message of words', () => {
      for (const kind of ['code', 'think', 'message', 'finish'] as const) {
        const { text, read } = counted('def f(x): return x\n'.repeat(50_000));
        const action = kind === 'code' ? { kind, language: 'python', code: text } : { kind, text };
        expect(stepText({ t: 0, tool: 'x', action })).toBe(naive(`${kind === 'code' ? 'python' : kind}: ${'def f(x): return x\n'.repeat(10)}`));
        expect(read.chars).toBeLessThanOrEqual(FIRST_READ);
      }
    });

    it('equals collapsing the whole text, then cutting, with whitespace runs across the first reads', () => {
      const words = (n: number) => 'w '.repeat(n);
      for (const ws of [' ', '\n', ' \t ', '\r\n'])
        for (const run of [FIRST_READ - 20, FIRST_READ, 4 * FIRST_READ + 3, 70_000])
          for (const text of [`${ws.repeat(run)}${words(80)}`, `${words(30)}${ws.repeat(run)}${words(80)}`, `${words(30)}${ws.repeat(run)}`, `a${ws.repeat(run)}\u{1F600}b`]) {
            expect(stepText({ t: 0, tool: 'x', action: { kind: 'code', language: 'py', code: text } })).toBe(naive(`py: ${text}`));
            expect(stepText({ t: 0, tool: 'x', action: { kind: 'think', text } })).toBe(naive(`think: ${text}`));
          }
    });
  });
});
