/**
 * The line scan of output-lines.ts cut to what the test readers read (issue 24): the {@link TEST_LINES} flags and
 * where the first pytest summary line starts, the same as `scanOutput(text, false, at) & TEST_LINES` on every text
 * (test/evidence/test-lines.test.ts checks it on every corpus output and on each shape at column 0 and indented). A
 * forecaster whose model reads no error evidence (the trained one) reads an output for its test summary only: the
 * syntax, trace and compiler shapes (half the first-character table, the compiler-location walk at colons) cost a
 * step for nothing there, and pytest's progress shape (a line ending in `%]`) is looked for only in a text holding a
 * `%` (one `includes` an output instead of a call a line; most outputs hold none).
 */
import { countShape, LINE, progressShape, SUMMARY, type ScanAt } from './output-lines.js';

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * The first characters {@link testShape} has a case for: at column 0 (index c) and after blanks (index 128 + c).
 * lineShape's table less the syntax and trace ones (`S`, `I`, `b`, `s`, `/`, and `T`, `a` after blanks).
 */
const TEST_SHAPED = new Uint8Array(256);
for (const c of '0123456789=\x1bnRET[B#-oFtec') TEST_SHAPED[c.charCodeAt(0)] = 1;
for (const c of '0123456789\x1b-ec') TEST_SHAPED[128 + c.charCodeAt(0)] = 1;

/** lineShape's test flags (and SUMMARY) of a line whose first non-blank character, `c`, is at `first`. */
function testShape(text: string, first: number, c: number, end: number, col0: boolean): number {
  if (isDigit(c)) return countShape(text, first, col0);
  const d = text.charCodeAt(first + 1);
  switch (c) {
    case 61: {
      // = : pytest's framed summary, or `=== no tests ran in ...`
      if (!col0) return 0;
      let k = first;
      while (text.charCodeAt(k) === 61) k++;
      if (text.charCodeAt(k) !== 32) return 0;
      if (isDigit(text.charCodeAt(k + 1))) return countShape(text, k + 1, true) & (LINE.pytest | SUMMARY);
      return text.startsWith(' no tests ran', k) ? LINE.pytest : 0;
    }
    case 27: // ESC: a colour code first
      return LINE.pytest;
    case 110: // n
      if (!col0 || d !== 111) return 0;
      return (text.startsWith('no tests ran', first) ? LINE.pytest : 0) | (text.startsWith('nox > ', first) ? LINE.tox : 0);
    case 82: // R
      return col0 && text.startsWith('Ran ', first) ? LINE.unittest : 0;
    case 69: // E
      return col0 && d === 82 && text.startsWith('ERROR:', first) && text.slice(first, end).includes(': commands failed') ? LINE.tox : 0;
    case 84: // T
      if (!col0 || d !== 101) return 0;
      return (text.startsWith('Tests run: ', first) ? LINE.junit : 0) | (text.startsWith('Tests:', first) ? LINE.js : 0);
    case 91: {
      // [ : Maven's `[LEVEL] ...`
      if (!col0) return 0;
      const line = text.slice(first, end);
      return line.includes('] Tests run: ') || line.includes('] BUILD ') ? LINE.junit : 0;
    }
    case 66: // B
      return col0 && text.startsWith('BUILD ', first) ? LINE.junit : 0;
    case 35: // #
      return col0 && d === 32 && (text.startsWith('# pass', first) || text.startsWith('# fail', first)) ? LINE.js : 0;
    case 45: // -
      return d === 45 && (text.startsWith('--- PASS', first) || text.startsWith('--- FAIL', first)) ? LINE.go : 0;
    case 111: // o
      return col0 && d === 107 && (text.startsWith('ok ', first) || text.startsWith('ok\t', first)) ? LINE.go : 0;
    case 70: // F
      return col0 && d === 65 && (text.startsWith('FAIL\t', first) || text.startsWith('FAIL ', first)) ? LINE.go : 0;
    case 116: // t
      return col0 && d === 101 && text.startsWith('test result: ', first) ? LINE.cargo : 0;
    case 101: // e
      return (col0 && d === 114 && text.startsWith('error', first) ? LINE.cargo : 0) | (d === 118 && text.startsWith('evaluation failed :(', first) ? LINE.tox : 0);
    case 99: // c
      return d === 111 && text.startsWith('congratulations :)', first) ? LINE.tox : 0;
  }
  return 0;
}

/** A tox environment's verdict at an indented line's first colon (colonShape's tox case). */
const toxColon = (text: string, colon: number): boolean =>
  text.charCodeAt(colon + 1) === 32 && (text.startsWith(': commands ', colon) || text.startsWith(': OK (', colon) || text.startsWith(': FAIL code', colon));

/** `scanOutput(text, false, at) & TEST_LINES`, in one pass that reads only what the test shapes need. */
export function scanTestLines(text: string, at?: ScanAt): number {
  const n = text.length;
  // progressShape needs a `%` before the line's last character: a text without one has no progress line.
  const progress = text.includes('%');
  let mask = 0;
  let summary = -1;
  let p = 0;
  // The next colon at or after the current line's first character, found once and reused until passed (as scanOutput).
  let colon = -1;
  while (p < n) {
    let end = text.indexOf('\n', p);
    if (end < 0) end = n;
    let first = p;
    let c = 0;
    while (first < end) {
      c = text.charCodeAt(first);
      if (c !== 32 && c !== 9) break;
      first++;
    }
    if (first < end) {
      const indented = first > p;
      if (c < 128 && TEST_SHAPED[indented ? 128 + c : c] === 1) {
        const flags = testShape(text, first, c, end, !indented);
        if ((flags & SUMMARY) !== 0 && summary < 0) summary = p;
        mask |= flags;
      }
      if (progress) mask |= progressShape(text, first, end);
      if (indented) {
        if (colon < first) {
          colon = text.indexOf(':', first);
          if (colon < 0) colon = n;
        }
        if (colon < end && toxColon(text, colon)) mask |= LINE.tox;
      }
    }
    p = end + 1;
  }
  if (at !== undefined) at.pytestSummary = summary < 0 ? n : summary;
  return mask & ~SUMMARY;
}
