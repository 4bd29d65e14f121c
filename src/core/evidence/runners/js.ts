/**
 * JavaScript runners. jest: `Tests:       1 failed, 1 skipped, 2 passed, 4 total` (the
 * `Test Suites:` line counts files, not tests, and is not read). mocha: `N passing (Xms)`,
 * `M failing`. Node's own runner (`node --test`, TAP): `# pass N`, `# fail M`.
 */
import { LINE } from '../line-shapes.js';
import { num, type RunnerParser, type TestRun } from './types.js';

/** `Tests:` at a line start, as `^` of a multiline pattern sees one: after a newline, `\r`, U+2028 or U+2029. */
const lineStart = (text: string, i: number): boolean => {
  const c = i === 0 ? 10 : text.charCodeAt(i - 1);
  return c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
};
const BLANKS = /\s+/y;

/**
 * Each jest summary (`Tests:       1 failed, 2 passed, 3 total`), as `/^Tests:\s+([^\n]*\d total)/gm` finds them:
 * its index and the text after the blanks up to the last `<digit> total` of its line, in order. Written out rather
 * than as that pattern, whose `^` also matches after `\r`, U+2028 and U+2029, which `[^\n]*` steps over: from every
 * `Tests:` after a `\r` it rescanned the rest of the line (16 KiB of `Tests:\r` 20 ms, 64 KiB 0.4 s). Here the blanks
 * are taken whole (a shorter run would leave a blank, not a digit, where the rest starts) and each line's `total`s are
 * read once, forward: a later `Tests:` on the same line ends at the same last one, or finds none after it. Linear.
 */
export function jestSummaries(text: string, each: (index: number, summary: string) => void): void {
  const n = text.length;
  const totalFrom = (i: number): number => {
    const k = text.indexOf(' total', i);
    return k < 0 ? n : k;
  };
  // The line read last (it ends at `end`, a newline or the text's end) and its last `<digit> total` (-1: none).
  let end = -1;
  let total = -1;
  // The first ` total` at or after where the search for one last started (n: none), kept across lines.
  let next = -1;
  for (let at = text.indexOf('Tests:'); at >= 0; at = text.indexOf('Tests:', at + 1)) {
    if (!lineStart(text, at)) continue;
    BLANKS.lastIndex = at + 6;
    if (!BLANKS.test(text)) continue;
    // Past the blanks (which may hold newlines): every later `Tests:` is after this, so lines come in order.
    const from = BLANKS.lastIndex;
    if (from > end) {
      end = text.indexOf('\n', from);
      if (end < 0) end = n;
      total = -1;
      // Its digit at `from` or after: the ` total` one character further.
      if (next <= from) next = totalFrom(from + 1);
      for (; next < end; next = totalFrom(next + 1)) {
        const c = text.charCodeAt(next - 1);
        if (c >= 48 && c <= 57) total = next - 1;
      }
    }
    if (total < from) continue;
    each(at, text.slice(from, total + 7));
    at = total + 6; // the next search starts where the match ended
  }
}

const MOCHA = /^[ \t]*(\d+) (passing|failing)\b/gm;
const TAP = /^# (pass|fail) (\d+)\s*$/gm;
// The global patterns are run by `exec` from lastIndex 0 until null (which resets it): `matchAll` copies the pattern each call.
// Tried from the start of a run of digits only, as in pytest.ts.
export const PASSED = /(?<!\d)(\d+) passed/;
export const FAILED = /(?<!\d)(\d+) failed/;

export const jsParser: RunnerParser = {
  family: 'js',
  needs: LINE.js,
  parse(text) {
    let found = false;
    const run: TestRun = { passed: 0, failed: 0, errors: 0 };
    jestSummaries(text, (_, summary) => {
      found = true;
      run.passed += num(PASSED.exec(summary)?.[1]);
      run.failed += num(FAILED.exec(summary)?.[1]);
    });
    if (text.includes('passing') || text.includes('failing')) {
      MOCHA.lastIndex = 0;
      for (let m = MOCHA.exec(text); m !== null; m = MOCHA.exec(text)) {
        found = true;
        if (m[2] === 'passing') run.passed += num(m[1]);
        else run.failed += num(m[1]);
      }
    }
    if (text.includes('# pass') || text.includes('# fail')) {
      TAP.lastIndex = 0;
      for (let m = TAP.exec(text); m !== null; m = TAP.exec(text)) {
        found = true;
        if (m[1] === 'pass') run.passed += num(m[2]);
        else run.failed += num(m[2]);
      }
    }
    return found ? run : null;
  },
};
