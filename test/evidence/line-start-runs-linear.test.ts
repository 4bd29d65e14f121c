/**
 * A command's output is read in linear time when its lines start after `\r`, U+2028 or U+2029 (a hostile tenant writes
 * every byte of it). `^` of a multiline pattern matches there too, and a pattern that then read on with `[^\n]` or
 * `[^)\n]` rescanned the rest of the line from each of them: jest's `Tests:` line (16 KiB of `Tests:\r` 20 ms, 64 KiB
 * 0.4 s), pytest's summary with a wall time in parentheses (`1 passed in 1s (\r`: 8 ms, 0.13 s) and Node's
 * `Error: ...` before an indented `at ` (`Error: \r`: 32 ms, 0.6 s). The line scan looked for a compiler location's
 * `(` (`a.ts(3,7):`) back to the text's start on every line that had none (`a):1` lines: 8 ms, 0.13 s). Each is
 * checked against the code it replaced on every string of the corpus logs and on generated texts, then fed 4 MiB
 * (16 KiB is all a step's output gives them): the old code, quadratic, would take 8-40 minutes there (from its times at
 * 16-64 KiB), the new one milliseconds. No timing is asserted.
 */
import { describe, expect, it } from 'vitest';
import { errorKind, TRACEBACK } from '../../src/core/evidence/errors.js';
import { LINE } from '../../src/core/evidence/line-shapes.js';
import { colonShape, scanOutput } from '../../src/core/evidence/output-lines.js';
import { jestSummaries, jsParser } from '../../src/core/evidence/runners/js.js';
import { pytestParser, pytestSummaries } from '../../src/core/evidence/runners/pytest.js';
import { corpusStrings } from '../fixtures/corpus-runs.js';
import { generated } from '../labeler/helpers.js';

const PART = String.raw`\d+ (?:subtests )?(?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|rerun)`;
const OLD_SUMMARY = new RegExp(String.raw`^(?:=+ )?((?:${PART})(?:, ${PART})*) in [\d.]+ ?s(?:econds)?(?: \([^)\n]*\))?(?: =+)?\s*$`, 'gm');
const OLD_JEST = /^Tests:(?=(\s+))\1([^\n]*\d total)/gm;
const OLD_NODE = /^\w*(?:Error|Exception)(?: \[\w+\])?: [^\n]*\n[ \t]+at /m;
const NODE = TRACEBACK[3]!;
const MB4 = 4 << 20;

type Found = Array<[number, string, number?]>;

/** Every match of a global pattern: [index, the group read, end]. */
function matches(re: RegExp, group: number, text: string): Found {
  const out: Found = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push(group === 1 ? [m.index, m[1]!, re.lastIndex] : [m.index, m[group]!]);
  return out;
}
const pytestFound = (text: string): Found => {
  const out: Found = [];
  pytestSummaries(text, (index, parts, end) => out.push([index, parts, end]));
  return out;
};
const jestFound = (text: string): Found => {
  const out: Found = [];
  jestSummaries(text, (index, summary) => out.push([index, summary]));
  return out;
};

/** colonShape as it was: the `(` of `a.ts(3,7):` looked for by `lastIndexOf`, back to the text's start. */
function oldColonShape(text: string, first: number, colon: number, indented: boolean): number {
  const isDigit = (c: number) => c >= 48 && c <= 57;
  const isLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
  let flags = 0;
  const next = text.charCodeAt(colon + 1);
  if (indented && next === 32 && (text.startsWith(': commands ', colon) || text.startsWith(': OK (', colon) || text.startsWith(': FAIL code', colon))) flags |= LINE.tox;
  if (isDigit(next) || (next === 32 && text.startsWith(' error', colon + 1))) {
    let k = colon - 1;
    if (text.charCodeAt(k) === 41) k = text.lastIndexOf('(', k);
    let letters = 0;
    while (k > first && isLetter(text.charCodeAt(k - 1)) && letters < 6) {
      k--;
      letters++;
    }
    if (letters > 0 && text.charCodeAt(k - 1) === 46) flags |= LINE.compile;
  }
  return flags;
}

/** Both colonShapes on each line of `text` that has a colon (its first non-blank character and first colon, as scanOutput reads them). */
function expectSameColons(text: string, shown: string): void {
  for (let p = 0; p <= text.length;) {
    let end = text.indexOf('\n', p);
    if (end < 0) end = text.length;
    let first = p;
    while (first < end && (text[first] === ' ' || text[first] === '\t')) first++;
    const colon = text.indexOf(':', first);
    if (first < end && colon >= 0 && colon < end) expect(colonShape(text, first, colon, first > p), shown).toBe(oldColonShape(text, first, colon, first > p));
    p = end + 1;
  }
}

/** The new code and the old on `text`, each reader by itself. */
const SAME = {
  pytest: (text: string, shown: string) => expect(pytestFound(text), shown).toEqual(matches(OLD_SUMMARY, 1, text)),
  jest: (text: string, shown: string) => expect(jestFound(text), shown).toEqual(matches(OLD_JEST, 2, text)),
  node: (text: string, shown: string) => expect(NODE.test(text), shown).toBe(OLD_NODE.test(text)),
  colon: expectSameColons,
};
/**
 * Pieces the generated texts of each reader are made of: line ends of every kind, and the pieces of its lines (an odd
 * number of pieces in all: helpers' `generated` picks them by the low bits of its generator, which repeat with a period
 * of a power of two).
 */
const ENDS = ['\n', '\r', '\u2028', '\u2029', '\r\n', ' ', '\t', 'x', '1'];
const PIECES: Record<keyof typeof SAME, string[]> = {
  pytest: ['=', '== ', ' ==', '1 passed', '2 failed', ', ', ' in 1s', ' in 0.1 seconds', ' (', '(', ')', '(1)', '1 passed in 1s', '1 failed in 1s (', ') ==', '==='],
  jest: ['Tests:', 'Tests: ', ' total', '1 total', '2 passed, ', ','],
  node: ['Error', 'TypeError: ', 'Exception [x]: ', ': ', '  at ', 'at ', '\n  at ', 'a'],
  colon: [':', ':1', ': error', '(', ')', '(1,2)', 'a', 'ab', '.', '.ts', 'a.ts(', 'b.c:1', '  ', '):1'],
};

describe('line starts after \\r, U+2028 and U+2029 in command output', () => {
  it('the pytest and jest summaries, the Node error pattern and the colon test say what the old code said, on every string of the corpus logs', () => {
    const texts = corpusStrings();
    expect(texts.length).toBeGreaterThan(10_000);
    let summaries = 0;
    for (const text of texts) {
      for (const same of Object.values(SAME)) same(text, text.slice(0, 200));
      summaries += pytestFound(text).length + jestFound(text).length;
    }
    expect(summaries).toBeGreaterThan(0);
  });

  it('... and on generated texts', () => {
    // What they find (the corpus logs hold no Node error, no `(` before a compiler location's colon).
    const found = { pytest: 0, jest: 0, node: 0, colon: 0 };
    for (const [reader, same] of Object.entries(SAME) as Array<[keyof typeof SAME, (text: string, shown: string) => void]>) {
      for (const text of generated([...ENDS, ...PIECES[reader]], 30_000)) {
        same(text, JSON.stringify(text));
        if (reader === 'pytest') found.pytest += pytestFound(text).length;
        if (reader === 'jest') found.jest += jestFound(text).length;
        if (reader === 'node' && NODE.test(text)) found.node++;
        if (reader === 'colon' && /\)[:]/.test(text) && (scanOutput(text) & LINE.compile) !== 0) found.colon++;
      }
    }
    for (const n of Object.values(found)) expect(n).toBeGreaterThan(100);
  });

  it('4 MiB of such lines are read (the old code: minutes)', () => {
    const run = (piece: string) => piece.repeat(Math.ceil(MB4 / piece.length));
    expect(jsParser.parse(run('Tests:\r'))).toBeNull();
    expect(jsParser.parse(run('Tests: 1\u2028'))).toBeNull();
    expect(jsParser.parse(`${run('Tests: \r')}2 passed, 2 total\nx`)).toEqual({ passed: 2, failed: 0, errors: 0 });
    expect(pytestParser.parse(run('1 passed in 1s (\r'))).toBeNull();
    expect(pytestParser.parse(`${run('1 failed in 1s (\u2028')}) ==`)).toEqual({ passed: 0, failed: 1, errors: 0 });
    expect(errorKind(`  at x\n${run('Error: \r')}`)).toBeNull();
    expect(errorKind(`  at x\n${run('TypeError: a\u2028')}\n  at f (a.js:1:2)`)).toBe('traceback');
    expect(scanOutput(run('a):1\n')) & LINE.compile).toBe(0);
    expect(scanOutput(`${run('a):1\n')}a.ts(3,7): error TS1: x`) & LINE.compile).toBe(LINE.compile);
  });
});
