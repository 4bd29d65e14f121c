/**
 * The line scan of output-lines.ts cut to what the test readers read (issue 24): the {@link TEST_LINES} flags and
 * where the first pytest summary line starts, the same as `scanOutput(text, false, at) & TEST_LINES` on every text
 * (test/evidence/test-lines.test.ts checks it on every corpus output and on each shape at column 0 and indented). A
 * forecaster whose model reads no error evidence (the trained one) reads an output for its test summary only: the
 * syntax, trace and compiler shapes (half the first-character table, the compiler-location walk at colons) cost a
 * step for nothing there, and pytest's progress shape (a line ending in `%]`) is looked for only in a text holding a
 * `%` (one `includes` an output instead of a call a line; most outputs hold none).
 */
import { LINE, lineShape, progressShape, SUMMARY, TEST_SHAPED, toxColon } from './line-shapes.js';
import type { ScanAt } from './output-lines.js';

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
        const flags = lineShape(text, first, c, end, !indented, false);
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
