/**
 * Path assignments in Python text, found from each `=` (`assignedLiterals`) instead of by one pattern tried at every
 * character: the same matches as the old pattern, in its order, on every real corpus text and on generated texts
 * built from the pieces its rules turn on (blanks of every kind, names after digits and after `.`, `==`, string
 * prefixes, backslashes and newlines in literals, `=` inside a literal a match ends on).
 */
import { describe, expect, it } from 'vitest';
import { assignedLiterals } from '../../src/core/labeler/python-assigns.js';
import { pythonScan } from '../../src/core/labeler/python-writes.js';
import { corpusActionTexts } from '../fixtures/corpus-runs.js';
import { generated } from './helpers.js';

const STR = String.raw`[rRuUbBfF]{0,2}(?:'([^'\\\n]*)'|"([^"\\\n]*)")`;
/** The pattern `pythonScan` ran before. */
const OLD = new RegExp(String.raw`(?:^|[\s;(,])([A-Za-z_]\w*)\s*=\s*(?:(?:pathlib\.)?Path\(\s*)?${STR}`, 'g');

function oldAssigns(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(OLD)) out.push(m[1]!, m[2] ?? m[3]!);
  return out;
}

describe('path assignments in Python text', () => {
  it('finds what the old pattern found, on every corpus text', () => {
    let found = 0;
    for (const text of corpusActionTexts().flat()) {
      const want = oldAssigns(text);
      found += want.length;
      expect(assignedLiterals(text), text.slice(0, 200)).toEqual(want);
    }
    // The corpus does hold assignments of literals (a comparison of two empty lists would prove nothing).
    expect(found).toBeGreaterThan(100);
  });

  it('finds what the old pattern found, on generated texts', () => {
    const parts = [
      'x',
      'T1',
      '_',
      '1',
      'é',
      '.',
      ' ',
      '\t',
      '\n',
      '\v',
      '\u00a0',
      '\u2028',
      '\ufeff',
      '\u0085',
      ';',
      '(',
      ',',
      ')',
      '=',
      '==',
      '!=',
      "'a.py'",
      '"b/c"',
      "'",
      '"',
      '\\',
      'r',
      'bf',
      'Path(',
      'pathlib.',
      'u',
    ];
    for (const text of generated(parts, 40_000, 12, 3)) expect(assignedLiterals(text), JSON.stringify(text)).toEqual(oldAssigns(text));
  });

  it('keeps the rules of the old pattern that tests name', () => {
    expect(assignedLiterals("T = 'a.py'")).toEqual(['T', 'a.py']);
    expect(assignedLiterals(" p=pathlib.Path( rb'x/y')")).toEqual(['p', 'x/y']);
    // After a digit, a dot or a quote a word is no name; a name may not start with a digit.
    expect(assignedLiterals("1x = 'a'\no.x = 'b'\n9 = 'c'")).toEqual([]);
    // The first match's literal hides the `=` inside it.
    expect(assignedLiterals(`a = "x, y='p.py'" ; z = 'q'`)).toEqual(['a', "x, y='p.py'", 'z', 'q']);
    // Comparisons, a backslash or a newline in the literal, three prefix letters: no match.
    expect(assignedLiterals("x == 'a'\ny = 'a\\b'\nz = 'a\nb'\nw = rbf'a'")).toEqual([]);
  });

  it('finds a value after every character one may start with (the check before the pattern runs)', () => {
    const starts = ["'", '"', ...'rRuUbBfF'.split('').map((c) => `${c}'`), "rb'", "Rb'", "Path('", "pathlib.Path('", "Path( B'"];
    for (const start of starts) {
      for (const gap of ['', ' ', '\t', '\u00a0 ']) {
        const text = `x =${gap}${start}${start.endsWith('"') ? 'a/b.py"' : "a/b.py'"}`;
        expect(assignedLiterals(text), text).toEqual(['x', 'a/b.py']);
        expect(oldAssigns(text), text).toEqual(['x', 'a/b.py']);
      }
    }
    expect(assignedLiterals("x = q'a/b.py'\ny = path('c.py')\nz = 0")).toEqual(oldAssigns("x = q'a/b.py'\ny = path('c.py')\nz = 0"));
  });

  it('pythonScan keeps the plausible paths among them', () => {
    expect(pythonScan("A = 'has space'\nB = 'pkg/mod.py'\nopen(B, 'w')").assigns).toEqual(['B', 'pkg/mod.py']);
  });
});
