/**
 * A command's output is read in linear time on the event loop the sessions share: the last 16 KiB of it
 * (OUTPUT_WINDOW) went through patterns that rescanned a run from each of its characters. The runners' counts
 * (`(\d+) passed`, ...: 16 KiB of digits before another word, 0.4 s), jest's `Tests:` line (blanks or digits after it,
 * 0.12-0.15 s), and the compiler and shell error patterns, whose `^` also matches after `\r`, U+2028 and U+2029 (16 KiB
 * of `\r` after a javac or tsc line: 0.15-0.3 s; `bash: \r` or `[ERROR] \r` lines: 40-70 ms). Each is checked against
 * the old pattern on every string of the corpus logs and on small generated texts, then fed a megabyte run (16 KiB is
 * all a step's output gives them; the old patterns take minutes on a megabyte). No timing is asserted.
 */
import { describe, expect, it } from 'vitest';
import { COMPILE, errorKind, SYNTAX } from '../../src/core/evidence/errors.js';
import { FAILED as JS_FAILED, jestSummaries, PASSED as JS_PASSED, jsParser } from '../../src/core/evidence/runners/js.js';
import { ERRORS, FAILED, PASSED, pytestParser, SUBTESTS_FAILED } from '../../src/core/evidence/runners/pytest.js';
import { corpusStrings } from '../fixtures/corpus-runs.js';
import { generated } from '../labeler/helpers.js';

/** Each new pattern with the one it replaced (`test` is all errors.ts asks of its patterns; the counts are `exec`ed). */
const TESTED: Array<[string, RegExp, RegExp]> = [
  ['bash syntax error', SYNTAX[1]!, /^(?:bash|sh|\/bin\/\w+): [^\n]*syntax error/m],
  ['javac / Maven', COMPILE[1]!.re, /^[^:\n]+\.java:\d+: error: |^\[ERROR\] [^\n]*\.java:\[\d+,\d+\]/m],
  ['tsc', COMPILE[4]!.re, /^[^:\n]+(?:\(\d+,\d+\))?: error TS\d+:/m],
];
const EXECED: Array<[string, RegExp, RegExp]> = [
  ['passed', PASSED, /(\d+) passed/],
  ['failed', FAILED, /(\d+) failed/],
  ['subtests failed', SUBTESTS_FAILED, /(\d+) subtests failed/],
  ['errors', ERRORS, /(\d+) errors?\b/],
  ['jest passed', JS_PASSED, /(\d+) passed/],
  ['jest failed', JS_FAILED, /(\d+) failed/],
];
const OLD_JEST = /^Tests:\s+([^\n]*\d+ total)/gm;
const MB = 1 << 20;

/** Every match of the old pattern as [index, the text jsParser reads]. */
function jestMatches(text: string): Array<[number, string | undefined]> {
  const out: Array<[number, string | undefined]> = [];
  OLD_JEST.lastIndex = 0;
  for (let m = OLD_JEST.exec(text); m !== null; m = OLD_JEST.exec(text)) out.push([m.index, m[1]]);
  return out;
}

/** The same from jestSummaries (line-start-runs-linear.test.ts checks it against the pattern it replaced). */
function jestFound(text: string): Array<[number, string | undefined]> {
  const out: Array<[number, string | undefined]> = [];
  jestSummaries(text, (index, summary) => out.push([index, summary]));
  return out;
}

function expectSame(text: string, shown: string): void {
  for (const [name, now, old] of TESTED) expect(now.test(text), `${name}: ${shown}`).toBe(old.test(text));
  for (const [name, now, old] of EXECED) expect(now.exec(text), `${name}: ${shown}`).toEqual(old.exec(text));
  expect(jestFound(text), shown).toEqual(jestMatches(text));
}

describe('long runs in command output', () => {
  it('the error, count and jest patterns say what the old ones said, on every string of the corpus logs', () => {
    const texts = corpusStrings();
    expect(texts.length).toBeGreaterThan(10_000); // 12,367
    let hits = 0;
    for (const text of texts) {
      expectSame(text, text.slice(0, 200));
      if (TESTED.some(([, now]) => now.test(text))) hits++;
    }
    expect(hits).toBeGreaterThan(0);
  });

  it('... and on generated texts', () => {
    const parts = ['\n', '\r', '\u2028', '\u2029', ' ', '\t', ':', 'a', '1', '12', ',', '.java', ':1', ': error: ', '[ERROR] ', '.java:[1,2]', 'bash: ', 'sh: ', '/bin/x: '];
    const more = ['syntax error', '(1,2)', ': error TS1:', 'Tests:', ' total', ' passed', ' failed', ' subtests failed', ' errors', ' error', 'x'];
    for (const text of generated([...parts, ...more], 60_000)) expectSame(text, JSON.stringify(text));
    // 60,000 texts against nine patterns each: ~24 s alone on a loaded 2-core machine, near the suite's 30 s default.
  }, 120_000);

  it('a megabyte run in the output is read (the old patterns ran for minutes)', () => {
    const runs = ['\r', 'a\r', '[ERROR] \r', 'bash: \r', 'x.java\r', ' ', '1'];
    for (const run of runs) {
      const text = run.repeat(MB / run.length);
      for (const [name, now] of TESTED) expect(now.test(`x.java:1: ok\na.ts: error TSx\n${text}`), name).toBe(false);
      expect(errorKind(`x.java:1: ok\na.ts: error TSx\n${text}`)).toBeNull();
    }
    const digits = '1'.repeat(MB);
    for (const [name, now] of EXECED) expect(now.exec(`${digits} other`), name).toBeNull();
    expect(pytestParser.parse(`${digits} failed in 1s`)).toEqual({ passed: 0, failed: Number(digits), errors: 0 });
    expect(pytestParser.parse(`${'1'.repeat(MB)}x passed`)).toBeNull();
    expect(jsParser.parse(`Tests:${' '.repeat(MB)}`)).toBeNull();
    expect(jsParser.parse(`Tests: ${digits}`)).toBeNull();
    expect(jsParser.parse(`Tests: ${digits}${' '.repeat(MB)}3 passed, 4 total`)).toEqual({ passed: 3, failed: 0, errors: 0 });
    expect(errorKind(`${'\r'.repeat(MB)}x.java:1: error: y`)).toBe('compile');
  });
});
