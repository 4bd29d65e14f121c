/**
 * One pass over a command's output that says which readers could find anything in it
 * (issue 26's cost target: all evidence in a few µs a step). Each line is classified by
 * its first characters only; a reader (a runner family's parser, an error pattern) runs
 * its regular expressions only when a line of a shape it needs is present. Every flag is
 * a necessary condition of its readers' patterns (their patterns are line-anchored to
 * match), so skipping never changes a result: test/evidence/output-lines.test.ts checks
 * that on every step of the corpus runs.
 */

import { isDigit, lineShape, LINE, progressShape, SHAPED, SUMMARY, toxColon } from './line-shapes.js';

const isLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);

/** What the line's first colon says: a compiler location (`x.go:12:`, `a.ts(3,7): error`) or a tox environment's verdict (`  py39: commands ...`). Exported for tests. */
export function colonShape(text: string, first: number, colon: number, indented: boolean): number {
  let flags = 0;
  // Every text tested below has a space or a digit after the colon: most colons (`def f():`, `a: 1`) need no call.
  const next = text.charCodeAt(colon + 1);
  if (indented && toxColon(text, colon)) flags |= LINE.tox;
  if (isDigit(next) || (next === 32 && text.startsWith(' error', colon + 1))) {
    // An extension before the colon (or before `(line,col)`): 1-5 letters after a dot.
    let k = colon - 1;
    if (text.charCodeAt(k) === 41) {
      // `a.ts(3,7)`: its `(`, looked for on this line only (a `lastIndexOf` read back to the text's start when the
      // line had none: 16 KiB of `a):1` lines 8 ms, 64 KiB 0.13-0.19 s). One found at `first` or before gives no letters.
      k--;
      while (k > first && text.charCodeAt(k) !== 40) k--;
    }
    let letters = 0;
    while (k > first && isLetter(text.charCodeAt(k - 1)) && letters < 6) {
      k--;
      letters++;
    }
    if (letters > 0 && text.charCodeAt(k - 1) === 46) flags |= LINE.compile;
  }
  return flags;
}

/** Where a scan saw the first line of a shape, for a reader to start there. */
export interface ScanAt {
  /**
   * The start of the first line shaped like a pytest summary (`N passed ...` at column 0, after `=== ` or not),
   * `text.length` when none: no summary line starts before it at a `\n` (pytest.ts, `pytestSummaries`).
   */
  pytestSummary: number;
}

/**
 * The {@link LINE} flags of every line of `text`, or-ed; one pass (O(length of text)). With `compile` false a
 * line's first colon is looked at only on indented lines (a tox verdict): the flag of a compiler location
 * (`a.py:12:`, every line of `grep -n`) may then be missing, and every other flag is the same. `at`, when given, is
 * filled with where the first pytest summary line starts.
 */
export function scanOutput(text: string, compile = true, at?: ScanAt): number {
  let mask = 0;
  let summary = -1;
  let p = 0;
  const n = text.length;
  // The next colon at or after the current line's start, found once and reused until passed (keeps the pass linear).
  let colon = -1;
  while (p < n) {
    let end = text.indexOf('\n', p);
    if (end < 0) end = n;
    let first = p;
    // The first non-blank character, kept for the table and lineShape rather than read again.
    let c = 0;
    while (first < end) {
      c = text.charCodeAt(first);
      if (c !== 32 && c !== 9) break;
      first++;
    }
    if (first < end) {
      const col0 = first === p;
      const flags = (c < 128 && SHAPED[col0 ? c : 128 + c] === 1 ? lineShape(text, first, c, end, col0, true) : 0) | progressShape(text, first, end);
      if ((flags & SUMMARY) !== 0 && summary < 0) summary = p;
      mask |= flags;
      if (compile || first > p) {
        if (colon < first) {
          colon = text.indexOf(':', first);
          if (colon < 0) colon = n;
        }
        if (colon < end) mask |= colonShape(text, first, colon, first > p);
      }
    }
    p = end + 1;
  }
  if (at !== undefined) at.pytestSummary = summary < 0 ? n : summary;
  return mask & ~SUMMARY;
}
